package org.adaptivecompress.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Each history keeps its level's native window, up to the stream's; the stream declares the largest. */
class NativeWindowsTest {

    @ParameterizedTest(name = "{0}: 2^{1}")
    @CsvSource({"zstd:-5, 19", "zstd:1, 19", "zstd:2, 20", "zstd:3, 21", "zstd:8, 21", "zstd:9, 22", "zstd:15, 22",
        "zstd:17, 23", "zstd:19, 23", "zstd:22, 27", "xz:0, 18", "xz:1, 20", "xz:2, 21", "xz:6, 23", "xz:9, 26"})
    void aRungKeepsTheWindowOfItsLevelInTheNativeTools(String rung, int windowLog) {
        assertThat(NativeWindows.nativeWindowLog(Rung.parse(rung))).isEqualTo(windowLog);
        assertThat(NativeWindows.historyWindowLog(Rung.parse(rung), 22)).isEqualTo(Math.min(22, windowLog));
    }

    @ParameterizedTest(name = "zstd:{0}: 2^{1}")
    @CsvSource({"-5, 0", "1, 0", "2, 0", "0, 16", "3, 16", "9, 20", "15, 23"})
    void zstdsChainTableFollowsItsLevelAndTheFastLevelsHaveNone(int level, int chainLog) {
        assertThat(NativeWindows.zstdChainLog(level)).isEqualTo(chainLog);
    }

    @Test
    void codecsWithoutHistoriesHaveNoWindow() {
        assertThatThrownBy(() -> NativeWindows.nativeWindowLog(Rung.parse("lz4"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStreamDeclaresTheLargestWindowItsRungsKeepAndAtLeastTheFormatsSmallest() {
        assertThat(NativeWindows.streamWindowLog(Ladder.defaultLadder().rungs(), 23)).as("xz:6").isEqualTo(23);
        assertThat(NativeWindows.streamWindowLog(Ladder.defaultLadder().rungs(), 21)).isEqualTo(21);
        assertThat(NativeWindows.streamWindowLog(Ladder.parse("raw,lz4,zstd:1,zstd:3").rungs(), 23)).isEqualTo(21);
        assertThat(NativeWindows.streamWindowLog(List.of(Rung.parse("zstd:1")), 23)).as("1 MiB at least").isEqualTo(20);
    }

    @Test
    void optionsDeclareTheWindowOfTheirLadderOrOfTheRungAFixedControllerPins() {
        AdaptiveCompressionOptions defaults = AdaptiveCompressionOptions.builder().history(true).build();
        assertThat(defaults.historyWindow()).isEqualTo(8 << 20);
        assertThat(defaults.streamWindow()).isEqualTo(8 << 20);
        assertThat(defaults.toBuilder().controller("fixed:3").build().streamWindow()).as("zstd:3").isEqualTo(2 << 20);
        assertThat(defaults.toBuilder().controller("fixed:4").build().streamWindow()).as("zstd:9").isEqualTo(4 << 20);
        assertThat(defaults.toBuilder().historyWindow(1 << 20).build().streamWindow()).isEqualTo(1 << 20);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"zstd:1, 19", "zstd:3, 21", "zstd:9, 22"})
    void aZstdHistoryFrameDeclaresItsLevelsWindow(String spec, int windowLog) {
        Rung rung = Rung.parse(spec);
        byte[] src = DataKind.TEXT.generate(64 << 10);
        byte[] dst = new byte[src.length + 1024];
        try (HistoryCompressor compressor = Codecs.newHistoryCompressor(rung, NativeWindows.historyWindowLog(rung, 23))) {
            int n = compressor.compress(src, 0, src.length, dst, 0, dst.length);
            assertThat(n).isPositive();
        }
        // Magic (4 bytes), frame header descriptor, then the window descriptor: exponent in its
        // top five bits, from 2^10, and no mantissa for a power of two.
        assertThat(dst[4] & 0x20).as("not a single segment: the window descriptor is present").isZero();
        assertThat(dst[5] & 0xFF).isEqualTo((windowLog - 10) << 3);
    }
}
