package org.adaptivecompress.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CodecRoundTripTest {

    private static final String[] RUNGS = {
        "raw", "lz4", "lz4hc:9", "zstd:-5", "zstd:1", "zstd:19", "xz:0", "xz:6", "deflate:1", "deflate:9"};
    private static final int BLOCK = 64 * 1024;

    static Stream<Arguments> rungsAndKinds() {
        return Arrays.stream(RUNGS).flatMap(r -> Arrays.stream(DataKind.values()).map(k -> Arguments.of(r, k)));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("rungsAndKinds")
    void blocksRoundTripBitExactAtAnOffset(String spec, DataKind kind) throws Exception {
        Rung rung = Rung.parse(spec);
        byte[] data = kind.generate(BLOCK);
        byte[] src = new byte[BLOCK + 7];
        System.arraycopy(data, 0, src, 7, BLOCK);
        byte[] compressed = new byte[BLOCK * 2 + 13];
        byte[] restored = new byte[BLOCK + 5];

        try (BlockCompressor c = Codecs.newCompressor(rung); BlockDecompressor d = Codecs.newDecompressor(rung.codec())) {
            // Twice through the same instances: contexts are reused across blocks.
            for (int round = 0; round < 2; round++) {
                int n = c.compress(src, 7, BLOCK, compressed, 13, compressed.length - 13);
                assertThat(n).isPositive();
                Arrays.fill(restored, (byte) 0x55);
                d.decompress(compressed, 13, n, restored, 3, BLOCK);
                assertThat(Arrays.copyOfRange(restored, 3, 3 + BLOCK)).isEqualTo(data);
                assertThat(restored[2]).isEqualTo((byte) 0x55);
                assertThat(restored[3 + BLOCK]).isEqualTo((byte) 0x55);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"raw", "lz4", "lz4hc:4", "zstd:3", "xz:1", "deflate:6"})
    void saysDoesNotFitWhenRandomDataWouldNotShrink(String spec) {
        byte[] random = DataKind.RANDOM.generate(BLOCK);
        byte[] dst = new byte[BLOCK];
        try (BlockCompressor c = Codecs.newCompressor(Rung.parse(spec))) {
            assertThat(c.compress(random, 0, BLOCK, dst, 0, BLOCK - BLOCK / 32)).isEqualTo(BlockCompressor.DOES_NOT_FIT);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lz4", "zstd:3", "xz:1", "deflate:6"})
    void damagedOrMislabelledBlocksFailWithDataFormatException(String spec) {
        Rung rung = Rung.parse(spec);
        byte[] compressed = compressedText(rung);
        int n = compressed.length;
        byte[] out = new byte[BLOCK + 16];
        try (BlockDecompressor d = Codecs.newDecompressor(rung.codec())) {
            assertThatThrownBy(() -> d.decompress(compressed, 0, n, out, 0, BLOCK - 1))
                    .isInstanceOf(DataFormatException.class).hasMessageNotContaining("decodes to " + (BLOCK - 1));
            assertThatThrownBy(() -> d.decompress(compressed, 0, n / 2, out, 0, BLOCK))
                    .isInstanceOf(DataFormatException.class);
            byte[] garbage = DataKind.RANDOM.generate(n);
            assertThatThrownBy(() -> d.decompress(garbage, 0, n, out, 0, BLOCK))
                    .isInstanceOf(DataFormatException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xz:1", "deflate:6"})
    void aPayloadLongerThanDeclaredSaysSo(String spec) throws Exception {
        Rung rung = Rung.parse(spec);
        byte[] compressed = compressedText(rung);
        int n = compressed.length;
        try (BlockDecompressor d = Codecs.newDecompressor(rung.codec())) {
            assertThatThrownBy(() -> d.decompress(compressed, 0, n, new byte[BLOCK], 0, BLOCK - 1))
                    .hasMessageContaining("decodes to more than the " + (BLOCK - 1) + " bytes its header declares");
        }
    }

    @Test
    void bytesAfterADeflateStreamAreNamed() throws Exception {
        Rung rung = Rung.parse("deflate:6");
        byte[] payload = compressedText(rung);
        byte[] withTrailing = Arrays.copyOf(payload, payload.length + 3);
        try (BlockDecompressor d = Codecs.newDecompressor(rung.codec())) {
            assertThatThrownBy(() -> d.decompress(withTrailing, 0, withTrailing.length, new byte[BLOCK], 0, BLOCK))
                    .hasMessageContaining("has 3 bytes after its compressed data");
        }
    }

    /** A block of text as {@code rung} compresses it: exactly its payload. */
    private static byte[] compressedText(Rung rung) {
        byte[] compressed = new byte[BLOCK * 2];
        try (BlockCompressor c = Codecs.newCompressor(rung)) {
            int n = c.compress(DataKind.TEXT.generate(BLOCK), 0, BLOCK, compressed, 0, compressed.length);
            return Arrays.copyOf(compressed, n);
        }
    }
}
