package org.adaptivecompress.benchmarks.link.net;

/**
 * The relay's token bucket, kept as a virtual clock: the instant by which every byte let through
 * so far would have crossed a link of the current rate. A chunk waits until that instant passes;
 * the clock never lags the real one by more than a bucket's worth, so an idle link banks at most
 * one burst. The rate can change at any time and applies to the next chunk.
 */
final class Pacer {

    /** The bucket: one millisecond of rate, at least 4 KiB; with it the relay kept 99-100 % of every rate to 2.5 Gbit/s. */
    private static final double BURST_SECONDS = 0.001;
    private static final long MIN_BURST = 4 << 10;
    /** The most one read takes: 64 KiB, as the agents' writes. */
    static final int MAX_CHUNK = 64 << 10;

    private long bytesPerSecond;
    private long clock;

    Pacer(long bytesPerSecond) {
        setRate(bytesPerSecond);
    }

    /** From now on, {@code bytesPerSecond} ({@link Rates#UNLIMITED} for no pacing). */
    synchronized void setRate(long bytesPerSecond) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("rate must be positive, was " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    /** How many bytes to read at once at the current rate: a bucket's worth, at most {@link #MAX_CHUNK}. */
    synchronized int chunk() {
        return (int) Math.min(MAX_CHUNK, burst());
    }

    /**
     * Lets {@code n} bytes through: returns the nanoseconds to wait before sending them (0 or
     * less for none).
     */
    synchronized long reserve(int n, long nowNanos) {
        if (bytesPerSecond == Rates.UNLIMITED) {
            return 0;
        }
        long earliest = nowNanos - Math.round(burst() * 1e9 / bytesPerSecond);
        clock = Math.max(clock, earliest) + Math.round(n * 1e9 / bytesPerSecond);
        return clock - nowNanos;
    }

    private long burst() {
        return bytesPerSecond == Rates.UNLIMITED ? MAX_CHUNK
                : Math.max(MIN_BURST, Math.round(bytesPerSecond * BURST_SECONDS));
    }
}
