package org.adaptivecompress.internal.link;

import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The token bucket behind the emulated link's two ends ({@link RateLimitedOutputStream}, and
 * the {@code RateLimitedInputStream} of core's tests): bytes pass no faster than a rate that may change while they
 * flow. The bucket holds at most 10 ms of tokens (and at least 4 KiB), so bursts stay short.
 * One thread takes tokens; any thread may change the rate.
 */
final class TokenBucket {

    private static final long MIN_BURST = 4096;

    private final LongSupplier clock;
    private final LongConsumer sleeper;
    private volatile long bytesPerSecond;
    private double tokens;
    private long lastRefill;

    TokenBucket(long bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime, LockSupport::parkNanos);
    }

    /** A bucket on a given clock and sleep, which tests replace to make oversleeps exact. */
    TokenBucket(long bytesPerSecond, LongSupplier clock, LongConsumer sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
        this.lastRefill = clock.getAsLong();
        setBytesPerSecond(bytesPerSecond);
    }

    void setBytesPerSecond(long bytesPerSecond) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("bytesPerSecond must be positive, was " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    long bytesPerSecond() {
        return bytesPerSecond;
    }

    /** The most bytes one piece should carry at the current rate. */
    long burst() {
        long rate = bytesPerSecond;
        return rate == RateLimitedOutputStream.UNLIMITED ? Integer.MAX_VALUE : Math.max(MIN_BURST, rate / 100);
    }

    /**
     * Waits until {@code n} bytes may pass. The bytes are charged first and the wait pays off
     * the debt, so a wait that oversleeps leaves its surplus as tokens for the next piece.
     * Waiting instead for a full bucket before each bucket-sized piece lost every oversleep to
     * the bucket's cap: the link ran 1 % slow at 10 Mbit/s for 64 KiB writes (a 50-150 µs
     * oversleep on each of 200 pieces) and not at all for 8 KiB ones.
     */
    void acquire(int n) throws InterruptedIOException {
        if (bytesPerSecond == RateLimitedOutputStream.UNLIMITED) {
            return;
        }
        refill();
        tokens -= n;
        while (tokens < 0) {
            long rate = bytesPerSecond;
            if (rate == RateLimitedOutputStream.UNLIMITED) {
                tokens = 0; // the link became unlimited while this piece waited
                return;
            }
            long waitNanos = (long) (-tokens / rate * 1e9);
            sleeper.accept(Math.max(waitNanos, TimeUnit.MICROSECONDS.toNanos(50)));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the emulated link");
            }
            refill();
        }
    }

    /** Adds the tokens earned since the last refill at the current rate, up to a full bucket. */
    private void refill() {
        long now = clock.getAsLong();
        long rate = bytesPerSecond;
        if (rate != RateLimitedOutputStream.UNLIMITED) {
            tokens = Math.min(burst(), tokens + (now - lastRefill) * (rate / 1e9));
        }
        lastRefill = now;
    }
}
