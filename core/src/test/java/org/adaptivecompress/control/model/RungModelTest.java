package org.adaptivecompress.control.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RungModelTest {

    private final Blocks blocks = new Blocks();
    private final RungModel model = new RungModel(Blocks.LADDER);
    private final RungPriors priors = new RungPriors(Blocks.LADDER);

    @Test
    void predictsEveryRungFromThePriorsBeforeAnyBlock() {
        for (int r = 0; r <= Blocks.TOP; r++) {
            assertThat(model.speed(r)).isEqualTo(priors.speed(r));
            assertThat(model.ratio(r)).isCloseTo(priors.ratio(r), within(1e-9));
            assertThat(model.fresh(r)).isFalse();
        }
    }

    @Test
    void measuresTheRungsItCompressesAtButNotTheSpeedOfTheFirstBlock() {
        int stored = Blocks.BLOCK / 5;
        // The first block at a rung makes its context: twice as slow, not the rung's speed.
        model.learn(blocks.at(2, stored, 2 * nanosAt(100e6), Blocks.quiet(0)));
        assertThat(model.fresh(2)).isTrue();
        assertThat(model.speed(2)).isEqualTo(priors.speed(2));
        for (int i = 0; i < 30; i++) {
            model.learn(blocks.at(2, stored, nanosAt(100e6), Blocks.quiet(0)));
        }
        assertThat(model.speed(2)).isCloseTo(100e6, within(1e6));
        assertThat(model.ratio(2)).isCloseTo(Blocks.BLOCK / (stored + 20.0), within(0.05));
    }

    @Test
    void predictsTheRungsNotMeasuredFromHowTheDataCompressesAtOne() {
        // zstd:1 compresses this data half as well over raw as the reference (ratio - 1 halved) and twice as slowly.
        double ratio = 1 + (priors.ratio(2) - 1) / 2;
        for (int i = 0; i < 10; i++) {
            model.learn(blocks.at(2, storedFor(ratio), nanosAt(priors.speed(2) / 2), Blocks.quiet(0)));
        }
        assertThat(model.ratio(4)).isCloseTo(1 + (priors.ratio(4) - 1) / 2, within(0.1));
        assertThat(model.speed(4)).isCloseTo(priors.speed(4) / 2, within(priors.speed(4) * 0.05));
    }

    @Test
    void keepsEachKindOfDataApart() {
        for (int i = 0; i < 10; i++) {
            model.learn(blocks.at(2, Blocks.BLOCK / 6, nanosAt(300e6), Blocks.quiet(0))); // JSON-like
        }
        double jsonRatio = model.ratio(2);
        for (int i = 0; i < 10; i++) {
            model.learn(blocks.at(2, Blocks.BLOCK * 2 / 3, nanosAt(900e6), Blocks.quiet(0))); // binary-like
        }
        assertThat(model.ratio(2)).isLessThan(2);
        model.learn(blocks.at(2, Blocks.BLOCK / 6, nanosAt(300e6), Blocks.quiet(0)));
        assertThat(model.ratio(2)).as("back on JSON, its figures are there").isCloseTo(jsonRatio, within(0.3));
        assertThat(model.speed(2)).isCloseTo(300e6, within(30e6));
    }

    @Test
    void blocksThatDoNotShrinkAreAClassOfTheirOwn() {
        model.learn(blocks.at(2, Blocks.BLOCK, nanosAt(1000e6), Blocks.quiet(0)));
        assertThat(model.incompressible()).isTrue();
        assertThat(model.ratio(4)).isEqualTo(1);
        model.learn(blocks.at(2, Blocks.BLOCK / 4, nanosAt(600e6), Blocks.quiet(0)));
        assertThat(model.incompressible()).isFalse();
    }

    @Test
    void aFigureNotRenewedForLongIsPredictedAgain() {
        // Both rungs on data exactly as compressible as the reference: one class.
        model.learn(blocks.at(2, storedFor(priors.ratio(2)), nanosAt(600e6), Blocks.quiet(0)));
        assertThat(model.fresh(2)).isTrue();
        for (int i = 0; i <= RungModel.FRESH_BLOCKS; i++) {
            model.learn(blocks.at(1, storedFor(priors.ratio(1)), nanosAt(900e6), Blocks.quiet(0)));
        }
        assertThat(model.fresh(1)).isTrue();
        assertThat(model.fresh(2)).isFalse();
        assertThat(model.speed(2)).as("predicted again, from the speeds measured since").isNotEqualTo(600e6);
    }

    private static long nanosAt(double bytesPerSecond) {
        return (long) (Blocks.BLOCK * 1e9 / bytesPerSecond);
    }

    private static int storedFor(double ratio) {
        return (int) (Blocks.BLOCK / ratio) - 20;
    }
}
