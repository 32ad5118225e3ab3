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
 * longer with every byte queued. The producer's {@code linger.ms} is added to that threshold: a
 * producer that serializes slowly (a high rung on large records) sends each batch only once it has
 * lingered, so its floor rises by up to the linger while the link is idle. Read as a backlog, that
 * floor made the link look as slow as the producer's own output and held the top rung there.
 *
 * <p>A backlog that stood by its wait counts on until its waits have stayed short for
 * {@value #INTERVAL_MILLIS} ms, CoDel's interval: acknowledgements a quota held come in a burst,
 * and the newest bytes of a burst waited least. Read alone, one such wait emptied the FIFO the
 * controller saw, which took the burst for a link ten times faster (a 200 KB/s quota read as
 * 3 MB/s) and sent the next records at LZ4 or raw.
 *
 * <p>Until the first acknowledgement, the backlog stands only once its oldest bytes have waited
 * the linger and an interval: the first request also waits for metadata and a connection. Counted
 * at once, those milliseconds with nothing acknowledged read as a link that carried nothing, which
 * sent an unthrottled producer to the top rung and kept it there.
 *
 * <p>The wait is read from marks of how many bytes had been serialized when, one per decision:
 * the last byte acknowledged was serialized between the newest mark it covers and the next,
 * interpolated. Not thread-safe; the decider calls it under its decision lock.
 */
final class StandingBacklog {

    /** Added to twice the shortest wait and the linger, so that a floor of a fraction of a millisecond is not read as standing. */
    static final int SLACK_MILLIS = 5;
    /** Marks kept; at one per decision they span from tens of milliseconds (fast) to seconds (a quota). */
    static final int MARKS = 256;
    /** How long the waits of a backlog that stood must stay short before it stops counting. */
    static final int INTERVAL_MILLIS = 100;

    private final long lingerNanos;
    private final long[] markSerialized = new long[MARKS];
    private final long[] markNanos = new long[MARKS];
    private int marks;
    private int newest = -1;
    private long shortestWaitNanos = Long.MAX_VALUE;
    /** A measured wait found the backlog standing, and no interval of short waits has passed since. */
    private boolean stoodByWait;
    /** When the waits of the backlog that stood turned short; -1 while they are long or it is gone. */
    private long shortSinceNanos = -1;

    /** @param lingerMillis the producer's {@code linger.ms} */
    StandingBacklog(long lingerMillis) {
        this.lingerNanos = lingerMillis * 1_000_000L;
    }

    /**
     * Records one decision's totals and returns the backlog the controller should see.
     *
     * @param serializedTotal bytes serialized since the start
     * @param acknowledgedTotal bytes acknowledged (or failed) since the start
     * @param inFlight bytes serialized and not yet acknowledged
     * @param nanoTime now, {@link System#nanoTime()}
     * @return {@code inFlight} while the backlog stands, else 0
     */
    long observe(long serializedTotal, long acknowledgedTotal, long inFlight, long nanoTime) {
        boolean standing;
        int covered = inFlight == 0 ? -1 : newestMarkCovered(acknowledgedTotal);
        if (inFlight == 0) {
            standing = false;
            stoodByWait = false;
            shortSinceNanos = -1;
        } else if (covered >= 0) {
            long wait = nanoTime - serializedAt(covered, acknowledgedTotal, serializedTotal, nanoTime);
            shortestWaitNanos = Math.min(shortestWaitNanos, wait);
            standing = judge(wait > threshold(), nanoTime);
        } else if (marks > 0 && shortestWaitNanos != Long.MAX_VALUE) {
            // The bytes acknowledged now were serialized before the oldest mark: they waited at least this long.
            standing = judge(nanoTime - markNanos[oldest()] > threshold(), nanoTime);
        } else {
            // Nothing acknowledged yet: the first request waits for metadata and a connection, which
            // says nothing of the link, so the backlog stands only once that has taken an interval.
            standing = marks > 0 && nanoTime - markNanos[oldest()] > lingerNanos + INTERVAL_MILLIS * 1_000_000L;
        }
        mark(serializedTotal, nanoTime);
        return standing ? inFlight : 0;
    }

    /**
     * Whether the backlog stands, given whether the bytes acknowledged now waited long: it does
     * if they did, and for {@value #INTERVAL_MILLIS} ms of short waits after they last did.
     */
    private boolean judge(boolean waitedLong, long nanoTime) {
        if (waitedLong) {
            stoodByWait = true;
            shortSinceNanos = -1;
            return true;
        }
        if (!stoodByWait) {
            return false;
        }
        if (shortSinceNanos < 0) {
            shortSinceNanos = nanoTime;
        }
        if (nanoTime - shortSinceNanos >= INTERVAL_MILLIS * 1_000_000L) {
            stoodByWait = false;
            shortSinceNanos = -1;
        }
        return stoodByWait;
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
        return 2 * shortestWaitNanos + lingerNanos + SLACK_MILLIS * 1_000_000L;
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
