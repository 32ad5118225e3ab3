package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The writer's per-byte work outside the codec, learnt from the gaps between blocks. */
class WriterOverheadTest {

    private static final int BLOCK = 128 * 1024;

    private final WriterOverhead overhead = new WriterOverhead();

    @Test
    void aGapBetweenBlocksLessCodecTimeAndWaitsIsTheWritersOwnWork() {
        overhead.learn(block(1_000_000, 200_000, 0, 0, 1));
        assertThat(overhead.nanosPerByte()).isNaN();

        // 500 us later: 200 us in the codec, 100 us waiting for the sink, 200 us the writer's own.
        overhead.learn(block(1_500_000, 200_000, 100_000, 0, 1));

        assertThat(overhead.nanosPerByte()).isCloseTo(200_000.0 / BLOCK, within(1e-9));
    }

    @Test
    void blocksQueuedBehindABacklogOrCompressedInParallelTeachNothing() {
        overhead.learn(block(1_000_000, 200_000, 0, 0, 1));
        overhead.learn(block(2_000_000, 200_000, 0, 64 * 1024, 1));
        overhead.learn(block(3_000_000, 200_000, 0, 0, 2));

        assertThat(overhead.nanosPerByte()).isNaN();
    }

    @Test
    void aLowerSampleMovesTheEstimateHalfWayAndAHigherOneATwentieth() {
        long now = 0;
        overhead.learn(block(now, 0, 0, 0, 1));
        overhead.learn(block(now += 1_000_000, 0, 0, 0, 1)); // 1 ms of own work
        double first = 1_000_000.0 / BLOCK;

        overhead.learn(block(now += 200_000, 0, 0, 0, 1)); // 0.2 ms: the writer kept its core
        double fallen = first + 0.5 * (200_000.0 / BLOCK - first);
        assertThat(overhead.nanosPerByte()).isCloseTo(fallen, within(1e-9));

        overhead.learn(block(now + 5_000_000, 0, 0, 0, 1)); // 5 ms: it lost its core for a while
        assertThat(overhead.nanosPerByte()).isCloseTo(fallen + 0.05 * (5_000_000.0 / BLOCK - fallen), within(1e-9));
    }

    @Test
    void anEstimateLeftUnsampledBehindABacklogFollowsTheLowerOfItsSamples() {
        long now = 0;
        overhead.learn(block(now, 0, 0, 0, 1));
        overhead.learn(block(now += 5_000_000, 0, 0, 0, 1)); // 5 ms: a pause, the only sample
        double paused = 5_000_000.0 / BLOCK;
        for (int i = 0; i < WriterOverhead.STALE_BLOCKS; i++) {
            overhead.learn(block(now += 100_000, 0, 0, 1 << 20, 1)); // 0.1 ms behind a backlog
        }
        assertThat(overhead.nanosPerByte()).as("fresh").isCloseTo(paused, within(1e-9));

        overhead.learn(block(now += 100_000, 0, 0, 1 << 20, 1));
        double lowered = paused + 0.5 * (100_000.0 / BLOCK - paused);
        assertThat(overhead.nanosPerByte()).as("stale").isCloseTo(lowered, within(1e-9));
        overhead.learn(block(now += 5_000_000, 0, 0, 1 << 20, 1));
        assertThat(overhead.nanosPerByte()).as("a higher sample behind a backlog").isCloseTo(lowered, within(1e-9));
    }

    private static Observation block(long nanoTime, long compressNanos, long waitNanos, long fifoAtStart, int workers) {
        return Observation.builder().rung(2).topRung(6).fifo(fifoAtStart, fifoAtStart).block(BLOCK, BLOCK / 3, false)
                .compressNanos(compressNanos).nanoTime(nanoTime).writerWaitNanos(waitNanos).workers(workers).build();
    }
}
