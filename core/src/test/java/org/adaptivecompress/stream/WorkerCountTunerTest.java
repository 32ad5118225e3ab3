package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WorkerCountTunerTest {

    private static final int BLOCK = 128 * 1024;
    private static final double MB = 1e6;

    /**
     * A pipeline on a simulated clock: with k workers, a block's frame is queued every
     * {@code BLOCK / goodput(k)} seconds, times a bounded random factor, of which the block
     * spent {@link #codecShare} in its codec (all of it unless a test says otherwise).
     */
    private static final class Pipeline {
        final WorkerCountTuner tuner;
        final SplittableRandom random;
        final double noise;
        IntToDoubleFunction goodput;
        double codecShare = 1;
        long now;

        Pipeline(int max, double noise, IntToDoubleFunction goodput) {
            this(max, noise, 42, goodput);
        }

        Pipeline(int max, double noise, long seed, IntToDoubleFunction goodput) {
            this.tuner = new WorkerCountTuner(max);
            this.noise = noise;
            this.random = new SplittableRandom(seed);
            this.goodput = goodput;
        }

        /** Queues blocks until {@code windows} more windows closed. */
        void run(long windows) {
            long target = tuner.windows() + windows;
            while (tuner.windows() < target) {
                queueBlock();
            }
        }

        /** Queues blocks until the tuner holds a k; returns the windows it took, at most {@code limit}. */
        long converge(long limit) {
            long start = tuner.windows();
            queueBlock();
            while (tuner.searching() && tuner.windows() - start < limit) {
                queueBlock();
            }
            assertThat(tuner.searching()).as("still searching after %d windows: %s", limit, tuner).isFalse();
            return tuner.windows() - start;
        }

        private void queueBlock() {
            double seconds = BLOCK / goodput.applyAsDouble(tuner.workers());
            seconds *= 1 + noise * (2 * random.nextDouble() - 1);
            now += (long) (seconds * 1e9);
            tuner.blockQueued(BLOCK, (long) (seconds * codecShare * 1e9), now);
        }
    }

    private static int argmax(int max, IntToDoubleFunction goodput) {
        return IntStream.rangeClosed(1, max).boxed()
                .max((a, b) -> Double.compare(goodput.applyAsDouble(a), goodput.applyAsDouble(b))).orElseThrow();
    }

    /** Workers add compression until the link or the cores cap the goodput, then contend. */
    private static IntToDoubleFunction peakAt(int peak) {
        return k -> k <= peak ? 20 * MB * k : 20 * MB * peak * (1 - 0.04 * (k - peak));
    }

    @Test
    void staysAtOneWorkerWhenMoreOnlyContend() {
        Pipeline p = new Pipeline(8, 0, k -> 60 * MB / Math.sqrt(k));
        p.converge(12);
        assertThat(p.tuner.workers()).isEqualTo(1);
    }

    @ParameterizedTest(name = "max {0}")
    @ValueSource(ints = {2, 3, 4, 8, 16, 64, 256})
    void climbsToEveryWorkerWhenEachOneAddsGoodput(int max) {
        Pipeline p = new Pipeline(max, 0, k -> 20 * MB * k);
        long windows = p.converge(windowBound(max));
        assertThat(p.tuner.workers()).as("after %d windows", windows)
                .isGreaterThanOrEqualTo((int) Math.ceil(0.95 * max));
        if (max <= 20) {
            assertThat(p.tuner.workers()).as("one worker fewer loses over 5 %").isEqualTo(max);
        }
    }

    @ParameterizedTest(name = "peak at {0} of 16")
    @ValueSource(ints = {2, 3, 5, 8, 11, 15})
    void findsAPeakInTheMiddle(int peak) {
        Pipeline p = new Pipeline(16, 0, peakAt(peak));
        p.converge(windowBound(16));
        assertThat(p.tuner.workers()).isEqualTo(peak);
    }

    @Test
    void comparesOneAndTwoWhenTwoIsTheMost() {
        Pipeline faster = new Pipeline(2, 0, k -> 30 * MB * k);
        assertThat(faster.converge(2)).isEqualTo(2);
        assertThat(faster.tuner.workers()).isEqualTo(2);

        Pipeline same = new Pipeline(2, 0, k -> k == 1 ? 30 * MB : 31 * MB);
        same.converge(2);
        assertThat(same.tuner.workers()).as("within 5 %: fewer threads for the same result").isEqualTo(1);
    }

    @ParameterizedTest(name = "max {0}")
    @ValueSource(ints = {2, 4, 16, 256})
    void prefersOneWorkerWhenGoodputIsFlat(int max) {
        Pipeline p = new Pipeline(max, 0.02, k -> 40 * MB);
        p.converge(windowBound(max));
        assertThat(p.tuner.workers()).isEqualTo(1);
    }

    @ParameterizedTest(name = "peak at {0} of 16")
    @ValueSource(ints = {1, 4, 7, 12, 16})
    void convergesWithinFivePercentOfTheBestUnderBoundedNoise(int peak) {
        IntToDoubleFunction curve = peakAt(peak);
        for (int seed = 0; seed < 20; seed++) {
            Pipeline p = new Pipeline(16, 0.02, seed, curve);
            p.converge(windowBound(16));
            assertThat(curve.applyAsDouble(p.tuner.workers()))
                    .as("run %d settled on k=%d", seed, p.tuner.workers())
                    .isGreaterThanOrEqualTo(0.95 * curve.applyAsDouble(argmax(16, curve)));
        }
    }

    @Test
    void searchesAgainWhenTheHeldGoodputMovesAndFindsTheNewBest() {
        Pipeline p = new Pipeline(16, 0.02, peakAt(10));
        p.converge(windowBound(16));
        assertThat(p.tuner.workers()).isEqualTo(10);
        p.run(5);
        assertThat(p.tuner.searching()).as("holds while nothing changes").isFalse();

        // The link slows: beyond 3 workers the extra compression only fills the FIFO.
        p.goodput = k -> 20 * MB * Math.min(k, 3);
        p.run(1);
        assertThat(p.tuner.searching()).as("a 70 % drop restarts the search").isTrue();
        p.converge(windowBound(16));
        assertThat(p.tuner.workers()).isEqualTo(3);

        // The link is fast again and the data takes twice the CPU: more workers pay.
        IntToDoubleFunction slowerData = peakAt(14);
        p.goodput = k -> slowerData.applyAsDouble(k) / 2;
        p.run(1);
        assertThat(p.tuner.searching()).isTrue();
        p.converge(windowBound(16));
        assertThat(p.tuner.workers()).isEqualTo(14);
    }

    @Test
    void searchesAgainAfterALongHoldSoSlowChangesAreFound() {
        Pipeline p = new Pipeline(8, 0, peakAt(3));
        p.converge(windowBound(8));
        assertThat(p.tuner.workers()).isEqualTo(3);
        // A change too small to trip the 25 % drift check moves the peak.
        p.goodput = k -> 20 * MB * Math.min(k, 3) * (k > 3 ? 1.1 : 1);
        p.run(WorkerCountTuner.MAX_HOLD_WINDOWS);
        assertThat(p.tuner.searching()).isTrue();
        p.converge(windowBound(8));
        assertThat(p.tuner.workers()).isEqualTo(4);
    }

    @Test
    void measuresAfterTheBlocksDispatchedBeforeAChangeAndOverLongEnoughWindows() {
        WorkerCountTuner tuner = new WorkerCountTuner(4);
        long now = 0;
        tuner.blockQueued(BLOCK, 0, now); // the first block only marks the start
        for (int i = 0; i < 20; i++) {
            now += 1_000_000; // 20 blocks in 20 ms: too short a window
            tuner.blockQueued(BLOCK, 1_000_000, now);
        }
        assertThat(tuner.windows()).isZero();
        now += 100_000_000;
        tuner.blockQueued(BLOCK, 100_000_000, now);
        assertThat(tuner.windows()).isEqualTo(1);
        int k = tuner.workers();
        assertThat(k).as("the search moves on from one worker").isGreaterThan(1);
        // The next block was dispatched under one worker: the new window starts after it.
        now += 500_000_000;
        tuner.blockQueued(BLOCK, 500_000_000, now);
        for (int i = 0; i < 8; i++) {
            now += 20_000_000;
            tuner.blockQueued(BLOCK, 20_000_000, now);
        }
        assertThat(tuner.windows()).isEqualTo(2);
    }

    /**
     * A writer that spends a share {@code s} of its time in the codec gains at most
     * {@code 1 / ((1 - s) + s / max)} from {@code max} workers; the tuner measures more workers
     * only where that could reach 1.25x: above a share of 0.4 with two, 0.229 with eight.
     */
    @ParameterizedTest(name = "max {0}, codec share {1}")
    @CsvSource({"2, 0.38", "8, 0.21", "2, 0.0"})
    void holdsOneWorkerWithoutMeasuringMoreWhereTheCodecShareCannotPayForThem(int max, double share) {
        // Were they measured, more workers would look faster: the tuner must not try them.
        Pipeline p = new Pipeline(max, 0.3, k -> 40 * MB * k);
        p.codecShare = share;
        for (int i = 0; i < 4_000; i++) {
            p.queueBlock();
            assertThat(p.tuner.workers()).as("block %d: %s", i, p.tuner).isEqualTo(1);
        }
        assertThat(p.tuner.windows()).isGreaterThan(WorkerCountTuner.MAX_HOLD_WINDOWS);
        assertThat(p.tuner.searching()).isFalse();
    }

    @ParameterizedTest(name = "max {0}, codec share {1}")
    @CsvSource({"2, 0.42", "8, 0.25"})
    void searchesWhereTheCodecShareCouldPayForMoreWorkers(int max, double share) {
        Pipeline p = new Pipeline(max, 0, k -> 20 * MB * k);
        p.codecShare = share;
        p.converge(windowBound(max));
        assertThat(p.tuner.workers()).isEqualTo(max);
    }

    @Test
    void searchesOnceTheCodecShareRisesAndHoldsAgainWhenItFalls() {
        // Held raw on a fast link: next to no codec time.
        Pipeline p = new Pipeline(4, 0.02, peakAt(3));
        p.codecShare = 0.01;
        p.run(10);
        assertThat(p.tuner.workers()).isEqualTo(1);
        assertThat(p.tuner.searching()).isFalse();

        // The link slows and the stream climbs to a slow rung: the codec takes the writer's time.
        p.codecShare = 0.95;
        p.run(1);
        assertThat(p.tuner.searching()).as("the first window that could gain restarts the search").isTrue();
        p.converge(windowBound(4));
        assertThat(p.tuner.workers()).isEqualTo(3);

        // Raw again: the next search measures one worker first and holds it there.
        p.codecShare = 0.01;
        p.goodput = k -> 40 * MB;
        p.run(1);
        p.converge(windowBound(4));
        assertThat(p.tuner.workers()).isEqualTo(1);
        assertThat(p.tuner.toString()).contains("for the codec share");
    }

    @Test
    void rejectsBadBounds() {
        assertThatThrownBy(() -> new WorkerCountTuner(0)).hasMessageContaining("max");
        assertThatThrownBy(() -> new WorkerCountTuner(4, 0, 0)).hasMessageContaining("window");
        WorkerCountTuner single = new WorkerCountTuner(1);
        for (int i = 0; i < 100; i++) {
            assertThat(single.blockQueued(BLOCK, 100_000_000L, i * 100_000_000L)).isEqualTo(1);
        }
        assertThat(single.searching()).isFalse();
    }

    /** One window for one worker, at most two per golden-section step, then the bisection below the peak. */
    private static long windowBound(int max) {
        double log2 = Math.log(max) / Math.log(2);
        return 2 + 2 * (long) Math.ceil(log2 * Math.log(2) / Math.log((1 + Math.sqrt(5)) / 2)) + (long) Math.ceil(log2);
    }
}
