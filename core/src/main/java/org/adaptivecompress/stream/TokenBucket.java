package org.adaptivecompress.stream;

import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The token bucket behind the emulated link's two ends ({@link RateLimitedOutputStream},
 * {@link RateLimitedInputStream}): bytes pass no faster than a rate that may change while they
 * flow. The bucket holds at most 10 ms of tokens (and at least 4 KiB), so bursts stay short.
 * One thread takes tokens; any thread may change the rate.
 */
final class TokenBucket {

    private static final long MIN_BURST = 4096;

    private volatile long bytesPerSecond;
    private double tokens;
    private long lastRefill = System.nanoTime();

    TokenBucket(long bytesPerSecond) {
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

    /** Waits until {@code n} bytes may pass. */
    void acquire(int n) throws InterruptedIOException {
        long rate = bytesPerSecond;
        if (rate == RateLimitedOutputStream.UNLIMITED) {
            return;
        }
        while (true) {
            long now = System.nanoTime();
            long burst = burst();
            tokens = Math.min(burst, tokens + (now - lastRefill) * (rate / 1e9));
            lastRefill = now;
            // A piece sized for a faster rate may exceed the bucket after the rate drops: it
            // waits for a full bucket and runs the balance into debt that later pieces repay.
            double needed = Math.min(n, burst);
            if (tokens >= needed) {
                tokens -= n;
                return;
            }
            long waitNanos = (long) ((needed - tokens) / rate * 1e9);
            LockSupport.parkNanos(Math.max(waitNanos, TimeUnit.MICROSECONDS.toNanos(50)));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the emulated link");
            }
            rate = bytesPerSecond;
        }
    }
}
