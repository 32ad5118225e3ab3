package org.adaptivecompress.kafka;

/**
 * Tells a producer's standing backlog from the bytes its own batching keeps in flight. A producer
 * always holds some: what {@code linger.ms} gathers and what a round trip to the broker carries.
 * Read as AdOC's FIFO, that floor never empties, so a controller that takes a window in which the
 * FIFO stayed non-empty as one in which the link was busy measured the serializer's own pace as
 * the link's and stayed on whatever rung it had reached (unthrottled, on 10 KB records: zstd:7
 * at 101 MB/s in one invocation, zstd:1 at 421 MB/s in the next).
 *
 * <p>As CoDel (Nichols and Jacobson, "Controlling Queue Delay", 2012) does, it judges the queue by
 * how long its bytes wait, not by its size: the backlog counts only while the bytes acknowledged
 * now waited more than twice the shortest wait seen plus {@value #SLACK_MILLIS} ms. A floor of
 * linger and round trip waits the same at any rate; a backlog the broker or a quota holds waits
 * longer with every byte queued.
 *
 * <p>The wait is read from marks of how many bytes had been serialized when, one per decision:
 * the last byte acknowledged was serialized between the newest mark it covers and the next,
 * interpolated. Not thread-safe; the decider calls it under its decision lock.
 */
final class StandingBacklog {

    /** Added to twice the shortest wait, so that a floor of a fraction of a millisecond is not read as standing. */
    static final int SLACK_MILLIS = 5;
    /** Marks kept; at one per decision they span from tens of milliseconds (fast) to seconds (a quota). */
    static final int MARKS = 256;

    private final long[] markSerialized = new long[MARKS];
    private final long[] markNanos = new long[MARKS];
    private int marks;
    private int newest = -1;
    private long shortestWaitNanos = Long.MAX_VALUE;

    /**
     * Records one decision's totals and returns the backlog the controller should see.
     *
     * @param serializedTotal bytes serialized since the start
     * @param acknowledgedTotal bytes acknowledged (or failed) since the start
     * @param inFlight bytes serialized and not yet acknowledged
     * @param nanoTime now, {@link System#nanoTime()}
     * @return {@code inFlight} while the backlog stands (or before any wait was measured), else 0
     */
    long observe(long serializedTotal, long acknowledgedTotal, long inFlight, long nanoTime) {
        boolean standing;
        int covered = inFlight == 0 ? -1 : newestMarkCovered(acknowledgedTotal);
        if (inFlight == 0) {
            standing = false;
        } else if (covered >= 0) {
            long wait = nanoTime - serializedAt(covered, acknowledgedTotal, serializedTotal, nanoTime);
            shortestWaitNanos = Math.min(shortestWaitNanos, wait);
            standing = wait > threshold();
        } else if (marks > 0 && shortestWaitNanos != Long.MAX_VALUE) {
            // The bytes acknowledged now were serialized before the oldest mark: they waited at least this long.
            standing = nanoTime - markNanos[oldest()] > threshold();
        } else {
            standing = true; // nothing measured yet: the backlog as it is, as without this filter
        }
        mark(serializedTotal, nanoTime);
        return standing ? inFlight : 0;
    }

    /**
     * When the byte at {@code position} was serialized, interpolated between the mark that covers
     * it and the next (or now): decisions come every few records, so at a slow producer's pace a
     * mark alone could be far older than the byte.
     */
    private long serializedAt(int covered, long position, long serializedTotal, long nanoTime) {
        long nextBytes = serializedTotal;
        long nextNanos = nanoTime;
        if (covered != newest) {
            int next = (covered + 1) % MARKS;
            nextBytes = markSerialized[next];
            nextNanos = markNanos[next];
        }
        long span = nextBytes - markSerialized[covered];
        if (span <= 0) {
            return nextNanos;
        }
        double within = Math.min(1.0, (double) (position - markSerialized[covered]) / span);
        return markNanos[covered] + (long) (within * (nextNanos - markNanos[covered]));
    }

    private long threshold() {
        return 2 * shortestWaitNanos + SLACK_MILLIS * 1_000_000L;
    }

    /** The newest mark whose bytes are all acknowledged, or -1. */
    private int newestMarkCovered(long acknowledgedTotal) {
        for (int i = 0, m = newest; i < marks; i++, m = (m + MARKS - 1) % MARKS) {
            if (markSerialized[m] <= acknowledgedTotal) {
                return m;
            }
        }
        return -1;
    }

    private int oldest() {
        return (newest - marks + 1 + MARKS) % MARKS;
    }

    private void mark(long serializedTotal, long nanoTime) {
        newest = (newest + 1) % MARKS;
        markSerialized[newest] = serializedTotal;
        markNanos[newest] = nanoTime;
        marks = Math.min(MARKS, marks + 1);
    }
}
