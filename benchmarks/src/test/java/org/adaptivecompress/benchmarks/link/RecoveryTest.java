package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Blocks to recover after a step, by the definition in {@link Recovery}. */
class RecoveryTest {

    private static final double BLOCK = Agents.SAMPLE_BYTES;

    /** Samples every {@code slow} seconds for {@code slowBlocks} blocks after {@code start}, then every {@code fast}. */
    private static double[] samples(double start, int before, int slowBlocks, double slow, int fastBlocks, double fast) {
        double[] s = new double[before + slowBlocks + fastBlocks];
        double t = 0;
        for (int k = 0; k < s.length; k++) {
            t = k < before ? start * (k + 1) / before : t + (k < before + slowBlocks ? slow : fast);
            s[k] = t;
        }
        return s;
    }

    @Test
    void aSenderAtTheBestGoodputFromTheStepRecoversAfterOneWindow() {
        double[] s = samples(1.0, 10, 0, 0, 40, 0.01);

        assertThat(Recovery.blocksAfter(s, 1.0, 50 * Agents.SAMPLE_BYTES, BLOCK / 0.01))
                .isEqualTo(OptionalInt.of(Recovery.WINDOW));
    }

    @Test
    void blocksAtHalfTheBestGoodputCountUntilAWindowOfBlocksReachesNinetyPercent() {
        // 12 slow blocks at half the best goodput, then full speed: the window ending at block n
        // holds n - 12 fast blocks; 8 blocks at 90 % take 8 * 0.01 / 0.9 = 0.0889 s, which a
        // window with 7 fast and 1 slow block (0.09 s) just misses and 8 fast ones make.
        double[] s = samples(1.0, 10, 12, 0.02, 40, 0.01);

        assertThat(Recovery.blocksAfter(s, 1.0, 62 * Agents.SAMPLE_BYTES, BLOCK / 0.01)).isEqualTo(OptionalInt.of(20));
    }

    @Test
    void aSenderThatNeverReachesTheMarkWithinTheStretchHasNotRecovered() {
        double[] s = samples(1.0, 10, 40, 0.02, 0, 0);

        assertThat(Recovery.blocksAfter(s, 1.0, 50 * Agents.SAMPLE_BYTES, BLOCK / 0.01)).isEmpty();
    }

    @Test
    void bytesInFlightAreTheMostWrittenAndNotYetVerified() {
        long[] writes = {10, 20, 30, 40, 50};
        long[] verifies = {35, 45, 55, 65, 75};

        assertThat(Agents.inFlight(writes, verifies)).isEqualTo(3L * Agents.SAMPLE_BYTES);
        assertThat(Agents.inFlight(new long[0], verifies)).isEqualTo(-1);
    }
}
