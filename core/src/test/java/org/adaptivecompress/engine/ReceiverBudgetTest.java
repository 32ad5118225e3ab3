package org.adaptivecompress.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The budget's spec, what it admits, and options narrowed to it. */
class ReceiverBudgetTest {

    @Test
    void defaultsAcceptEverythingAReaderWithDefaultLimitsReads() {
        ReceiverBudget budget = ReceiverBudget.defaults();
        for (Rung rung : Ladder.parse("raw,lz4,lz4hc:17,zstd:22,xz:9,deflate:9").rungs()) {
            assertThat(budget.admits(rung)).as(rung.toString()).isTrue();
        }
        assertThat(budget.maxWindow()).isEqualTo(8 << 20);
        assertThat(budget.maxBlockLength()).isEqualTo(4 << 20);
        assertThat(budget).hasToString("any,window=8m,block=4m").isEqualTo(ReceiverBudget.parse(""
                + "any")).isEqualTo(ReceiverBudget.parse("window=8m"));
    }

    @Test
    void listedCodecsAreTheOnlyOnesAcceptedUpToTheirLevel() {
        ReceiverBudget budget = ReceiverBudget.parse("lz4, ZSTD:9, window=2MiB, block=1m");
        assertThat(budget.admits(Rung.RAW)).isTrue();
        assertThat(budget.admits(Rung.lz4hc(12))).isTrue();
        assertThat(budget.admits(Rung.zstd(9))).isTrue();
        assertThat(budget.admits(Rung.zstd(10))).isFalse();
        assertThat(budget.admits(Rung.xz(0))).isFalse();
        assertThat(budget.accepts(CodecType.DEFLATE)).isFalse();
        assertThat(budget.maxWindow()).isEqualTo(2 << 20);
        assertThat(budget.maxBlockLength()).isEqualTo(1 << 20);
        assertThat(budget).hasToString("raw,lz4,zstd:9,window=2m,block=1m");
        assertThat(ReceiverBudget.parse(budget.toString())).isEqualTo(budget);
        assertThat(ReceiverBudget.parse("raw,window=0,block=65536")).hasToString("raw,window=0,block=64k");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "zstd,,lz4", "brotli", "zstd:x", "raw:1", "zstd,zstd:3", "window=3m", "window=128m",
        "block=100", "block=1g", "size=4m", "window=lots", "memory=1k"})
    void aBadSpecNamesWhatIsWrong(String spec) {
        assertThatThrownBy(() -> ReceiverBudget.parse(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("receiver");
    }

    @Test
    void optionsNarrowToTheAdmittedRungsBlockAndWindow() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().history(true).historyWindow(8 << 20)
                .blockSize(2 << 20).resetInterval(8 << 20).build();
        AdaptiveCompressionOptions narrowed = options.within(ReceiverBudget.parse("lz4,zstd:9,window=2m,block=1m"));
        assertThat(narrowed.ladder()).hasToString("raw,lz4,zstd:1,zstd:3,zstd:9");
        assertThat(narrowed.blockSize()).isEqualTo(1 << 20);
        assertThat(narrowed.maxBlockSize()).as("the longest block, 2 MiB like the block size, narrowed too").isEqualTo(1 << 20);
        assertThat(AdaptiveCompressionOptions.defaults().within(ReceiverBudget.parse("any,block=512k")).maxBlockSize())
                .isEqualTo(512 << 10);
        assertThat(narrowed.history()).isTrue();
        assertThat(narrowed.historyWindow()).isEqualTo(2 << 20);
        assertThat(narrowed.resetInterval()).isEqualTo(8 << 20);

        AdaptiveCompressionOptions alone = options.within(ReceiverBudget.parse("any,window=0"));
        assertThat(alone.history()).isFalse();
        assertThat(alone.ladder()).isEqualTo(options.ladder());
    }

    @Test
    void aMemoryLimitBoundsBlocksAndHowManyHistoriesOfAWindowFit() {
        ReceiverBudget budget = ReceiverBudget.parse("any,memory=32m");
        assertThat(budget).hasToString("any,window=8m,block=4m,memory=32m");
        assertThat(ReceiverBudget.parse(budget.toString())).isEqualTo(budget);
        // 32 MiB - 2 x 4 MiB of blocks - 4 MiB for the stream's tail and prime: 20 MiB for histories.
        assertThat(budget.historiesWithin(1 << 20)).isEqualTo(5); // 3.5 MiB each
        assertThat(budget.historiesWithin(2 << 20)).isEqualTo(4); // 4.5 MiB each
        assertThat(budget.historiesWithin(16 << 20)).as("over the window limit").isZero();
        assertThat(ReceiverBudget.defaults().historiesWithin(8 << 20)).isEqualTo(16);
        assertThat(ReceiverBudget.parse("any,window=0").historiesWithin(1 << 20)).isZero();
        assertThat(ReceiverBudget.parse("memory=1m").maxBlockLength()).as("half the memory").isEqualTo(512 << 10);
    }

    @Test
    void optionsPickAWindowWhoseHistoriesFitTheMemory() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().history(true).historyWindow(8 << 20)
                .build(); // the default ladder: four zstd rungs and xz, five histories
        ReceiverBudget budget = ReceiverBudget.parse("any,memory=32m");
        AdaptiveCompressionOptions one = options.within(budget);
        assertThat(one.history()).isTrue();
        assertThat(one.historyWindow()).isEqualTo(1 << 20);
        assertThat(options.within(ReceiverBudget.parse("any,memory=64m")).historyWindow()).isEqualTo(4 << 20);
        assertThat(options.within(budget, 2).history()).as("ten histories do not fit").isFalse();
        assertThat(options.within(ReceiverBudget.parse("lz4,zstd:3,memory=32m"), 2).streamWindow())
                .as("two zstd rungs, two workers, at their native windows").isEqualTo(2 << 20);
    }

    @Test
    void aNamedFixedRungMovesToTheHighestAdmittedRungBelowIt() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().controller("fixed:6").build();
        AdaptiveCompressionOptions narrowed = options.within(ReceiverBudget.parse("lz4,zstd:3"));
        assertThat(narrowed.ladder()).hasToString("raw,lz4,zstd:1,zstd:3");
        assertThat(narrowed.controllerFactory().get()).hasToString("fixed:3");
        assertThat(AdaptiveCompressionOptions.builder().controller("fixed:1").build()
                .within(ReceiverBudget.parse("zstd")).controllerFactory().get()).hasToString("fixed:0");
    }
}
