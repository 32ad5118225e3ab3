package org.adaptivecompress.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.zip.DataFormatException;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.codec.HistoryCompressor;
import org.adaptivecompress.internal.codec.HistoryDecompressor;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.Allocations;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;

/**
 * A block that starts a history costs what the block is worth, not a window: a stream of tiny
 * blocks that each start an xz history allocated a 2 MiB dictionary per block.
 */
class HistoryRestartCostTest {

    @Test
    void startingAnXzHistoryReusesTheDictionaryOfTheOneBefore() throws Exception {
        byte[] content = DataKind.TEXT.generate(64);
        byte[] payload = new byte[256];
        int stored;
        try (HistoryCompressor compressor = Codecs.newHistoryCompressor(Rung.parse("xz:1"), FrameFormat.HISTORY_WINDOW_LOG)) {
            stored = compressor.compress(content, 0, content.length, payload, 0, payload.length);
        }
        assertThat(stored).isPositive();
        byte[] out = new byte[content.length];
        int blocks = 100;
        try (HistoryDecompressor decompressor = Codecs.newHistoryDecompressor(CodecType.XZ, FrameFormat.HISTORY_WINDOW_LOG)) {
            long allocated = Allocations.duringCall(() -> {
                for (int i = 0; i < blocks; i++) {
                    decompressor.decompress(false, null, payload, 0, stored, out, 0, content.length);
                }
            });
            assertThat(out).isEqualTo(content);
            assertThat(allocated / blocks).as("bytes allocated per block that starts a history")
                    .isLessThan(64 * 1024);

            // A start reusing the decoder must reset the dictionary, as a fresh decoder's first chunk must.
            byte[] noReset = payload.clone();
            noReset[0] = 0x02; // an uncompressed chunk without a dictionary reset
            assertThatThrownBy(() -> decompressor.decompress(false, null, noReset, 0, stored, out, 0, content.length))
                    .isInstanceOf(DataFormatException.class).hasMessageContaining("without resetting the dictionary");
        }
    }
}
