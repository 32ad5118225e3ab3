package org.adaptivecompress.internal.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InterruptedIOException;
import org.junit.jupiter.api.Test;

/** The emulated link's pace on a simulated clock whose every sleep oversleeps, as a real one does. */
class TokenBucketTest {

    private static final long OVERSLEEP_NANOS = 120_000;

    /** A clock that sleeps by moving forward what was asked and a fixed oversleep. */
    private static final class SimulatedClock {
        long now = 1_000_000_000L;

        long nanoTime() {
            return now;
        }

        void sleep(long nanos) {
            now += nanos + OVERSLEEP_NANOS;
        }
    }

    @Test
    void piecesAsLargeAsTheBucketPassAtTheNominalRateWhateverTheSleepsOversleep() throws InterruptedIOException {
        SimulatedClock clock = new SimulatedClock();
        long rate = 1_250_000; // 10 Mbit/s: the bucket holds 12,500 bytes
        TokenBucket bucket = new TokenBucket(rate, clock::nanoTime, clock::sleep);
        long start = clock.now;
        int pieces = 200;
        for (int i = 0; i < pieces; i++) {
            bucket.acquire((int) bucket.burst());
        }
        double seconds = (clock.now - start) / 1e9;
        // 2.5 MB at 1.25 MB/s is 2 s. Waiting for a full bucket before each piece lost each
        // oversleep to the bucket's cap: 2.024 s here, the 1 % a 64 KiB writer saw on loopback.
        assertThat(seconds).isBetween(2.0 - 0.001, 2.0 + 0.001);
    }

    @Test
    void anIdleBucketLetsThroughNoMoreThanTenMillisecondsOfBytesAtOnce() throws InterruptedIOException {
        SimulatedClock clock = new SimulatedClock();
        long rate = 1_250_000;
        TokenBucket bucket = new TokenBucket(rate, clock::nanoTime, clock::sleep);
        clock.now += 5_000_000_000L; // five seconds idle
        long start = clock.now;
        for (int i = 0; i < 100; i++) {
            bucket.acquire(12_500);
        }
        // 1.25 MB is one second at this rate; the idle time earned only the 10 ms the bucket holds.
        assertThat((clock.now - start) / 1e9).isGreaterThanOrEqualTo(0.99 - 1e-6);
    }

    @Test
    void aPieceWaitingWhenTheRateDropsPaysAtTheNewRate() throws InterruptedIOException {
        SimulatedClock clock = new SimulatedClock();
        TokenBucket bucket = new TokenBucket(10_000_000, clock::nanoTime, clock::sleep);
        bucket.acquire(100_000); // 10 ms at 10 MB/s, paid
        bucket.setBytesPerSecond(1_000_000);
        long start = clock.now;
        bucket.acquire(100_000);
        // 100 KB at 1 MB/s: 0.1 s, less the 10 KB a full bucket at the new rate holds at most.
        assertThat((clock.now - start) / 1e9).isBetween(0.09 - 1e-6, 0.1 + 0.001);
    }
}
