package org.adaptivecompress.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The committed vectors pin frame format v1: if this fails, the format drifted. */
class TestVectorsTest {

    private static byte[] resource(String name) {
        try (InputStream in = TestVectorsTest.class.getResourceAsStream("/vectors/" + name)) {
            assertThat(in).as("vector %s", name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] decode(byte[] stream) throws IOException {
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    @Test
    void theInputIsTheOneTheVectorsWereMadeFrom() {
        assertThat(resource("input.txt")).isEqualTo(TestVectors.INPUT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"raw", "lz4", "lz4hc:9", "zstd:3", "xz:6", "deflate:6"})
    void eachSingleCodecVectorDecodesToTheInput(String rung) throws IOException {
        byte[] vector = resource(TestVectors.fileName(rung));

        assertThat(decode(vector)).isEqualTo(TestVectors.INPUT);
        int codec = vector[FrameFormat.STREAM_HEADER_LENGTH] & 0xFF;
        assertThat(codec).isEqualTo(org.adaptivecompress.codec.Rung.parse(rung).codec().id());
    }

    @Test
    void theMixedVectorDecodesBlockAfterBlockAcrossEveryCodec() throws IOException {
        byte[] vector = resource("v1-mixed.adc");
        byte[] decoded = decode(vector);

        int blocks = decoded.length / TestVectors.INPUT.length;
        assertThat(blocks).isEqualTo(7);
        for (int i = 0; i < blocks; i++) {
            int from = i * TestVectors.INPUT.length;
            assertThat(Arrays.copyOfRange(decoded, from, from + TestVectors.INPUT.length)).isEqualTo(TestVectors.INPUT);
        }
        // Walk the frames: every codec of the format appears.
        boolean[] seen = new boolean[CodecType.values().length];
        int offset = FrameFormat.STREAM_HEADER_LENGTH;
        while ((vector[offset] & 0xFF) != FrameFormat.END_OF_STREAM) {
            seen[vector[offset] & 0xFF] = true;
            offset += FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(vector, offset + 8);
        }
        assertThat(seen).containsOnly(true);
        assertThat(offset + FrameFormat.BLOCK_HEADER_LENGTH).isEqualTo(vector.length);
    }

    @Test
    void theHistoryVectorDecodesAndMarksItsBlocksAsSpecified() throws IOException {
        byte[] vector = resource(TestVectors.HISTORY_VECTOR);

        byte[] decoded = decode(vector);
        assertThat(decoded).hasSize(4 * TestVectors.INPUT.length);
        for (int i = 0; i < 4; i++) {
            int from = i * TestVectors.INPUT.length;
            assertThat(Arrays.copyOfRange(decoded, from, from + TestVectors.INPUT.length)).isEqualTo(TestVectors.INPUT);
        }
        // stream flags: histories allowed
        assertThat(vector[5]).isEqualTo((byte) FrameFormat.STREAM_FLAG_HISTORY);
        // block by block: codec, flags (continues), history id
        int[][] expected = {{2, 0, 1}, {2, 1, 1}, {2, 1, 1}, {0, 0, 0}};
        int offset = FrameFormat.STREAM_HEADER_LENGTH;
        for (int[] block : expected) {
            assertThat(new int[] {vector[offset] & 0xFF, vector[offset + 1], vector[offset + 3]}).containsExactly(block);
            offset += FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(vector, offset + 8);
        }
        // the blocks after the first match the first one instead of repeating it
        int firstStored = FrameFormat.getInt(vector, FrameFormat.STREAM_HEADER_LENGTH + 8);
        int second = FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + firstStored;
        assertThat(FrameFormat.getInt(vector, second + 8)).isLessThan(firstStored / 4);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"v1-raw.adc", "v1-mixed.adc", TestVectors.HISTORY_VECTOR})
    void theEndMarkerCarriesTheDigestOfItsBlocks(String name) throws IOException {
        byte[] vector = resource(name);
        // Computed here from the specification, not with the library's StreamDigest: the CRC32C
        // of each block's uncompressed length and content CRC, header bytes 4-7 and 12-15.
        CRC32C digest = new CRC32C();
        int at = FrameFormat.STREAM_HEADER_LENGTH;
        while ((vector[at] & 0xFF) != FrameFormat.END_OF_STREAM) {
            digest.update(vector, at + 4, 4);
            digest.update(vector, at + 12, 4);
            at += FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(vector, at + 8);
        }
        assertThat(at).isEqualTo(vector.length - FrameFormat.BLOCK_HEADER_LENGTH);
        assertThat(Arrays.copyOfRange(vector, at, at + 12)).containsOnly(0xFF, 0);
        assertThat(FrameFormat.getInt(vector, at + 12)).isEqualTo((int) digest.getValue()).isNotZero();

        // As the writers before the digest left it: 0, accepted unchecked.
        FrameFormat.writeBlockHeader(vector, at, TestVectors.SALT, FrameFormat.END_OF_STREAM, 0, 0, 0, 0,
                new CRC32C());
        assertThat(decode(vector)).startsWith(TestVectors.INPUT);
        // Any other digest is refused.
        FrameFormat.writeBlockHeader(vector, at, TestVectors.SALT, FrameFormat.END_OF_STREAM, 0, 0, 0,
                (int) digest.getValue() + 1, new CRC32C());
        assertThat(catchThrowable(() -> decode(vector))).isInstanceOf(BlockSequenceException.class);
    }

    @Test
    void theHeaderBytesAreExactlyAsSpecified() {
        byte[] vector = resource("v1-raw.adc");
        // magic "AdOC", version 1, flags 0, reserved 0, salt
        assertThat(Arrays.copyOf(vector, 12)).containsExactly(
                0x41, 0x64, 0x4F, 0x43, 1, 0, 0, 0, 0x5A, 0x17, 0xAD, 0x0C);
        // raw block header: codec 0, flags 0, level 0, reserved 0, lengths equal
        assertThat(Arrays.copyOfRange(vector, 12, 16)).containsExactly(0, 0, 0, 0);
        assertThat(FrameFormat.getInt(vector, 16)).isEqualTo(TestVectors.INPUT.length);
        assertThat(FrameFormat.getInt(vector, 20)).isEqualTo(TestVectors.INPUT.length);
        // what this encoder writes today for the vectors that cannot depend on a codec version
        assertThat(TestVectors.encodeSingle("raw")).isEqualTo(vector);
    }
}
