package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.adaptivecompress.format.FrameFormat;
import org.junit.jupiter.api.Test;

/** Each rung's measured speed and ratio without a history, and the extrapolation of the rest. */
class RungFiguresTest {

    private static final int BLOCK = 128 * 1024;
    private static final int TOP = 6;

    private final RungFigures figures = new RungFigures();

    RungFiguresTest() {
        figures.size(TOP + 1);
    }

    @Test
    void beforeAnyBlockTheFirstCodecIsGuessedAndTheRestExtrapolatedFromIt() {
        assertThat(figures.estimatedSpeed(1)).isEqualTo(1e9);
        assertThat(figures.estimatedRatio(1)).isEqualTo(1.5);
        assertThat(figures.estimatedSpeed(3)).isCloseTo(1e9 / 9, within(1e-3));
        assertThat(figures.estimatedRatio(3)).isCloseTo(1.5 * 1.08 * 1.08, within(1e-9));
        assertThat(figures.estimatedRatio(0)).isEqualTo(1);
        assertThat(figures.fastestCodecSpeed()).isNaN();
    }

    @Test
    void aRungNeverMeasuredIsExtrapolatedFromTheNearestMeasuredCodecNotFromRaw() {
        learn(0, BLOCK, 20_000, 0); // raw: a memory copy, 6.5 GB/s
        learn(2, BLOCK / 5, 1_000_000, 1); // zstd:1

        double speed2 = BLOCK * 1e9 / 1_000_000;
        double ratio2 = ratio(BLOCK / 5);
        assertThat(figures.estimatedSpeed(2)).isCloseTo(speed2, within(1e-6));
        assertThat(figures.estimatedSpeed(1)).isCloseTo(speed2 * 3, within(1e-6));
        assertThat(figures.estimatedSpeed(4)).isCloseTo(speed2 / 9, within(1e-6));
        assertThat(figures.estimatedRatio(4)).isCloseTo(ratio2 * 1.08 * 1.08, within(1e-9));
        assertThat(figures.fastestCodecSpeed()).isCloseTo(speed2, within(1e-6));
    }

    @Test
    void aStaleRungThatOneSlowBlockReplacedIsMarkedUntilItsNextBlock() {
        learn(1, BLOCK / 2, 70_000, 1);
        learn(1, BLOCK / 2, 70_000, 2);
        assertThat(figures.slowedByOneBlock(1)).isFalse();

        // Long after, one block takes 885 us (the writer lost its core): it replaces the figures.
        long later = 2 + ThroughputController.STALE_AFTER + 1;
        learn(1, BLOCK / 2, 885_000, later);
        assertThat(figures.slowedByOneBlock(1)).isTrue();

        learn(1, BLOCK / 2, 70_000, later + 1);
        assertThat(figures.slowedByOneBlock(1)).isFalse();
    }

    @Test
    void freshSamplesAreAveragedButAFarOffOneOnAStaleRungReplacesItsFigures() {
        learn(2, BLOCK / 5, 1_000_000, 1);
        learn(2, BLOCK / 5, 1_000_000, 2);
        learn(2, BLOCK / 5, 2_000_000, 3);
        double fast = BLOCK * 1e9 / 1_000_000;
        double averaged = fast + 0.3 * (fast / 2 - fast);
        assertThat(figures.estimatedSpeed(2)).isCloseTo(averaged, within(1e-6));

        // Long after, the rung compresses at a third of that: data that is gone measured it.
        long later = 3 + ThroughputController.STALE_AFTER + 1;
        assertThat(figures.measuredLately(2, later)).isFalse();
        learn(2, BLOCK / 5, 3_000_000, later);

        assertThat(figures.estimatedSpeed(2)).isCloseTo(fast / 3, within(1e-6));
        assertThat(figures.measuredLately(2, later)).isTrue();
        assertThat(figures.age(2, later + 5)).isEqualTo(5);
    }

    @Test
    void aRatioFarFromItsRungsAverageSaysTheDataChangedAndTheOtherRungsRatiosAreForgotten() {
        learn(1, BLOCK / 3, 300_000, 1);
        learn(2, BLOCK / 5, 1_000_000, 2);
        assertThat(figures.estimatedRatio(1)).isCloseTo(ratio(BLOCK / 3), within(1e-9));

        // Random data now: zstd:1 no longer shrinks it.
        boolean changed = figures.learn(2, block(BLOCK - 100, 1_000_000), 3);

        assertThat(changed).isTrue();
        // LZ4's old ratio would keep it from ever being tried; it follows zstd:1's fresh one.
        assertThat(figures.estimatedRatio(1)).isCloseTo(ratio(BLOCK - 100) / 1.08, within(1e-9));
        assertThat(figures.estimatedRatio(2)).isCloseTo(ratio(BLOCK - 100), within(1e-9));
        // Its speed is still LZ4's own.
        assertThat(figures.estimatedSpeed(1)).isCloseTo(BLOCK * 1e9 / 300_000, within(1e-6));
    }

    @Test
    void aRungWhoseRatioWasForgottenTakesItsNextSampleAsItsRatio() {
        learn(0, BLOCK, 20_000, 0);
        learn(1, BLOCK / 3, 300_000, 1);
        learn(2, BLOCK / 5, 1_000_000, 2);
        figures.learn(2, block(BLOCK - 100, 1_000_000), 3); // forgets LZ4's ratio

        // LZ4 was measured a block ago, at its usual speed: its figures are fresh, not replaced.
        learn(1, BLOCK / 2, 300_000, 4);

        assertThat(figures.estimatedRatio(1)).isCloseTo(ratio(BLOCK / 2), within(1e-9));
        // And averages the ones after it, as before.
        learn(1, BLOCK * 2 / 5, 300_000, 5);
        assertThat(figures.estimatedRatio(1))
                .isCloseTo(ratio(BLOCK / 2) + 0.3 * (ratio(BLOCK * 2 / 5) - ratio(BLOCK / 2)), within(1e-9));
    }

    @Test
    void dataWhoseKindChangesEveryFewBlocksIsAMixWhoseRatiosAreAveragedNotForgotten() {
        // LZ4 on two kinds by turns, two blocks each, ratios of 2 and 8.
        int changes = 0;
        for (int b = 0; b < 32; b++) {
            changes += lz4OnTwoKinds(b) ? 1 : 0;
        }
        assertThat(changes).as("changes taken before the data was seen to be a mix").isBetween(1, 4);

        learn(2, BLOCK / 3, 1_000_000, 32);
        double zstd1 = figures.estimatedRatio(2);
        for (int b = 33; b < 64; b++) {
            assertThat(lz4OnTwoKinds(b)).as("block %d", b).isFalse();
        }

        assertThat(figures.estimatedRatio(2)).as("zstd:1's ratio is kept").isEqualTo(zstd1);
        assertThat(figures.estimatedRatio(1)).as("LZ4's is an average of the two kinds")
                .isBetween(ratio(BLOCK / 2) * 1.1, ratio(BLOCK / 8) * 0.9);
    }

    private boolean lz4OnTwoKinds(int b) {
        return figures.learn(1, block(b / 2 % 2 == 0 ? BLOCK / 2 : BLOCK / 8, 300_000), b);
    }

    @Test
    void aQueuedFrameCompressedAgainSlowerThanItsRungsSpeedReplacesItAndLeavesTheRatioAndAgeAlone() {
        learn(6, BLOCK / 4, 18_000_000, 10); // xz:6 on a block of half JPEG: 7.3 MB/s
        double ratio = figures.estimatedRatio(6);
        double speed = figures.estimatedSpeed(6);

        // A queued frame of text took it 36 ms: believed at once.
        figures.learnRecompressedSpeed(6, BLOCK * 1e9 / 36_000_000);
        assertThat(figures.estimatedSpeed(6)).isCloseTo(BLOCK * 1e9 / 36_000_000, within(1e-6));
        // Within noise of the figure, or faster, it is averaged in as a block's sample is.
        double now = figures.estimatedSpeed(6);
        figures.learnRecompressedSpeed(6, now * 1.2);
        assertThat(figures.estimatedSpeed(6)).isCloseTo(now + 0.3 * (now * 1.2 - now), within(1e-6));
        assertThat(figures.estimatedRatio(6)).isEqualTo(ratio);
        assertThat(figures.age(6, 12)).isEqualTo(2);
        assertThat(speed).isGreaterThan(now);
        // A rung never measured has no figure to correct.
        figures.learnRecompressedSpeed(5, 1e6);
        assertThat(figures.seen(5)).isFalse();
    }

    @Test
    void aRungMeasuredElsewhereIsFreshWithoutFiguresHere() {
        figures.measuredElsewhere(3, 10);

        assertThat(figures.age(3, 12)).isEqualTo(2);
        assertThat(figures.seen(3)).isFalse();
        assertThat(figures.measuredLately(3, 12)).isFalse();
    }

    private void learn(int rung, int stored, long nanos, long blockNumber) {
        figures.learn(rung, block(stored, nanos), blockNumber);
    }

    private static Observation block(int stored, long nanos) {
        return Observation.builder().rung(2).topRung(TOP).block(BLOCK, stored, false).compressNanos(nanos).build();
    }

    private static double ratio(int stored) {
        return (double) BLOCK / (stored + FrameFormat.BLOCK_HEADER_LENGTH);
    }
}
