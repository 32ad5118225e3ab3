package org.adaptivecompress.control;

/**
 * The last few (time, drained count) points of a span in which the sender wrote without pause,
 * so that the drain rate from each of them to now bounds the link from above. Fixed size: the
 * oldest point gives way to the newest.
 */
final class DrainMarks {

    private final long[] nanos;
    private final long[] drained;
    private int count;
    private int next;

    DrainMarks(int capacity) {
        nanos = new long[capacity];
        drained = new long[capacity];
    }

    void add(long atNanos, long drainedBytes) {
        nanos[next] = atNanos;
        drained[next] = drainedBytes;
        next = (next + 1) % nanos.length;
        count = Math.min(count + 1, nanos.length);
    }

    void clear() {
        count = 0;
        next = 0;
    }

    /**
     * The lowest rate, in bytes per second, from any point to ({@code nowNanos},
     * {@code drainedNow}), counting {@code inFlight} bytes a write may have taken without the
     * count showing them yet; infinity with no points.
     */
    double slowestRateTo(long nowNanos, long drainedNow, long inFlight) {
        double slowest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            long elapsed = Math.max(1, nowNanos - nanos[i]);
            slowest = Math.min(slowest, (drainedNow - drained[i] + inFlight) * 1e9 / elapsed);
        }
        return slowest;
    }
}
