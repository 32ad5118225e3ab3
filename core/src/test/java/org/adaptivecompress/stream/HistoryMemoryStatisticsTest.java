package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.tukaani.xz.LZMA2Options;

/** The statistics say what a writer's histories hold: zstd's windows and tables natively, xz's arrays and the tail on the heap. */
class HistoryMemoryStatisticsTest {

    private static final byte[] TEXT = DataKind.TEXT.generate(1 << 20);

    private static CompressionStatistics whileOpen(String ladder, boolean history) throws IOException {
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder(ladder).controller("fixed:1")
                .history(history).build(new ByteArrayOutputStream())) {
            out.write(TEXT);
            out.flush();
            return out.statistics();
        }
    }

    @Test
    void aZstdHistoryHoldsItsWindowAndMatchTablesNatively() throws IOException {
        CompressionStatistics s = whileOpen("raw,zstd:9", true);
        // zstd:9: a 4 MiB window and two tables of 2^20 four-byte entries, and zstd's block buffers.
        assertThat(s.historyNativeBytes()).isBetween(12L << 20, 14L << 20);
        assertThat(s.historyHeapBytes()).as("the stream's last 2 MiB").isEqualTo(FrameFormat.PRIME_LENGTH);
        assertThat(s.toString()).contains("histories: native=" + s.historyNativeBytes());
    }

    @Test
    void anXzHistoryHoldsItsEncodersArraysOnTheHeap() throws IOException {
        CompressionStatistics s = whileOpen("raw,xz:1", true);
        LZMA2Options xz1 = new LZMA2Options(1); // a 1 MiB dictionary, xz -1's
        assertThat(s.historyHeapBytes()).isEqualTo(FrameFormat.PRIME_LENGTH + xz1.getEncoderMemoryUsage() * 1024L);
        assertThat(s.historyNativeBytes()).isZero();
    }

    @Test
    void withoutHistoriesNothingIsHeldAndAGroupAddsUpItsOpenStreams() throws IOException {
        CompressionStatistics none = whileOpen("raw,zstd:9", false);
        assertThat(none.historyNativeBytes()).isZero();
        assertThat(none.historyHeapBytes()).isZero();

        CompressionStatistics zstd = whileOpen("raw,zstd:9", true);
        CompressionStatistics sum = CompressionStatistics.sum(Ladder.parse("raw,zstd:9"), List.of(zstd, zstd, none),
                null, System.nanoTime());
        assertThat(sum.historyNativeBytes()).isEqualTo(2 * zstd.historyNativeBytes());
        assertThat(sum.historyHeapBytes()).isEqualTo(2 * zstd.historyHeapBytes());
    }
}
