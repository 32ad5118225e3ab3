package org.adaptivecompress.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.StreamDigest;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.testing.Frames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The committed vectors pin the frame format: those of version 3 are what the writer makes
 * today, those of versions 1 and 2 what it made before, which every reader still reads. If
 * this fails, the format drifted.
 */
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

    /** Where each block of the vector starts, then where its end marker starts. */
    private static List<Integer> frames(byte[] vector, int version) {
        List<Integer> starts = new ArrayList<>();
        int at = FrameFormat.STREAM_HEADER_LENGTH;
        while ((vector[at] & 0xFF) != FrameFormat.END_OF_STREAM) {
            starts.add(at);
            at += FrameFormat.blockHeaderLength(version) + FrameFormat.getInt(vector, at + 8);
        }
        starts.add(at);
        return starts;
    }

    static Stream<Arguments> singleCodecVectors() {
        List<Arguments> cases = new ArrayList<>();
        for (int version : TestVectors.VERSIONS) {
            for (String rung : TestVectors.SINGLE) {
                cases.add(Arguments.of(version, rung));
            }
        }
        return cases.stream();
    }

    @Test
    void theInputIsTheOneTheVectorsWereMadeFrom() {
        assertThat(resource("input.txt")).isEqualTo(TestVectors.INPUT);
    }

    @ParameterizedTest(name = "v{0} {1}")
    @MethodSource("singleCodecVectors")
    void eachSingleCodecVectorDecodesToTheInput(int version, String rung) throws IOException {
        byte[] vector = resource(TestVectors.fileName(version, rung));

        assertThat(FrameFormat.version(vector, 0)).isEqualTo(version);
        assertThat(decode(vector)).isEqualTo(TestVectors.INPUT);
        int codec = vector[FrameFormat.STREAM_HEADER_LENGTH] & 0xFF;
        assertThat(codec).isEqualTo(org.adaptivecompress.codec.Rung.parse(rung).codec().id());
    }

    @ParameterizedTest(name = "v{0}")
    @ValueSource(ints = {FrameFormat.VERSION_1, FrameFormat.VERSION_2, FrameFormat.VERSION})
    void theMixedVectorDecodesBlockAfterBlockAcrossEveryCodec(int version) throws IOException {
        byte[] vector = resource(TestVectors.fileName(version, "mixed"));
        byte[] decoded = decode(vector);

        int blocks = decoded.length / TestVectors.INPUT.length;
        assertThat(blocks).isEqualTo(7);
        for (int i = 0; i < blocks; i++) {
            int from = i * TestVectors.INPUT.length;
            assertThat(Arrays.copyOfRange(decoded, from, from + TestVectors.INPUT.length)).isEqualTo(TestVectors.INPUT);
        }
        // Walk the frames: every codec of the format appears.
        boolean[] seen = new boolean[CodecType.values().length];
        List<Integer> frames = frames(vector, version);
        for (int at : frames.subList(0, frames.size() - 1)) {
            seen[vector[at] & 0xFF] = true;
        }
        assertThat(seen).containsOnly(true);
        assertThat(frames.get(frames.size() - 1) + FrameFormat.blockHeaderLength(version)).isEqualTo(vector.length);
    }

    @ParameterizedTest(name = "v{0}")
    @ValueSource(ints = {FrameFormat.VERSION_1, FrameFormat.VERSION_2, FrameFormat.VERSION})
    void theHistoryVectorDecodesAndMarksItsBlocksAsSpecified(int version) throws IOException {
        byte[] vector = resource(TestVectors.historyVector(version));

        byte[] decoded = decode(vector);
        assertThat(decoded).hasSize(4 * TestVectors.INPUT.length);
        for (int i = 0; i < 4; i++) {
            int from = i * TestVectors.INPUT.length;
            assertThat(Arrays.copyOfRange(decoded, from, from + TestVectors.INPUT.length)).isEqualTo(TestVectors.INPUT);
        }
        // stream flags: histories allowed; from version 3, the window's log2 (2 MiB)
        assertThat(vector[5]).isEqualTo((byte) FrameFormat.STREAM_FLAG_HISTORY);
        assertThat(vector[6]).isEqualTo((byte) (version >= FrameFormat.VERSION ? 21 : 0));
        // block by block: codec, flags (continues), history id
        int[][] expected = {{2, 0, 1}, {2, 1, 1}, {2, 1, 1}, {0, 0, 0}};
        List<Integer> frames = frames(vector, version);
        for (int i = 0; i < expected.length; i++) {
            int at = frames.get(i);
            assertThat(new int[] {vector[at] & 0xFF, vector[at + 1], vector[at + 3]}).containsExactly(expected[i]);
        }
        // the blocks after the first match the first one instead of repeating it
        assertThat(FrameFormat.getInt(vector, frames.get(1) + 8))
                .isLessThan(FrameFormat.getInt(vector, frames.get(0) + 8) / 4);
    }

    static Stream<Arguments> digestVectors() {
        List<Arguments> cases = new ArrayList<>();
        for (int version : TestVectors.VERSIONS) {
            for (String name : new String[] {"raw", "mixed", "zstd:3-history"}) {
                cases.add(Arguments.of(version, name));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "v{0} {1}")
    @MethodSource("digestVectors")
    void theEndMarkerCarriesTheDigestOfItsBlocks(int version, String name) throws IOException {
        byte[] vector = resource(TestVectors.fileName(version, name));
        // Computed here from the specification, not with the library's StreamDigest: the CRC32C
        // of each block's uncompressed length and content CRC, header bytes 4-7 and 12-15.
        CRC32C digest = new CRC32C();
        List<Integer> frames = frames(vector, version);
        long content = 0;
        for (int at : frames.subList(0, frames.size() - 1)) {
            digest.update(vector, at + 4, 4);
            digest.update(vector, at + 12, 4);
            content += FrameFormat.getInt(vector, at + 4);
        }
        int at = frames.get(frames.size() - 1);
        assertThat(at).isEqualTo(vector.length - FrameFormat.blockHeaderLength(version));
        assertThat(Arrays.copyOfRange(vector, at, at + 12)).containsOnly(0xFF, 0);
        assertThat(FrameFormat.getInt(vector, at + 12)).isEqualTo((int) digest.getValue()).isNotZero();

        // As the writers before the digest left it: 0, accepted unchecked.
        endMarker(vector, at, version, 0, content);
        assertThat(decode(vector)).startsWith(TestVectors.INPUT);
        // Any other digest is refused.
        endMarker(vector, at, version, (int) digest.getValue() + 1, content);
        assertThat(catchThrowable(() -> decode(vector))).isInstanceOf(BlockSequenceException.class);
    }

    private static void endMarker(byte[] vector, int at, int version, int digest, long content) {
        if (version == FrameFormat.VERSION_1) {
            FrameFormat.writeBlockHeaderV1(vector, at, TestVectors.SALT, FrameFormat.END_OF_STREAM, 0, 0, 0, 0, 0,
                    digest, new CRC32C());
        } else {
            FrameFormat.writeBlockHeader(vector, at, TestVectors.SALT, FrameFormat.END_OF_STREAM, 0, 0, 0, digest,
                    content, new CRC32C());
        }
    }

    /** From version 2: each block's stream offset is the content before it, the end marker's all of it. */
    @ParameterizedTest(name = "v{0}")
    @ValueSource(ints = {FrameFormat.VERSION_2, FrameFormat.VERSION})
    void eachHeaderCarriesItsStreamOffset(int version) {
        byte[] vector = resource(TestVectors.fileName(version, "mixed"));
        long content = 0;
        for (int at : frames(vector, version)) {
            assertThat(FrameFormat.getLong(vector, at + 16)).as("frame at %d", at).isEqualTo(content);
            content += FrameFormat.getInt(vector, at + 4);
        }
        assertThat(content).isEqualTo(7L * TestVectors.INPUT.length);
    }

    @Test
    void theHeaderBytesAreExactlyAsSpecified() {
        byte[] vector = resource(TestVectors.fileName(FrameFormat.VERSION, "raw"));
        // magic "AdOC", version 3, flags 0, window 0 (no histories), reserved 0, salt
        assertThat(Arrays.copyOf(vector, 12)).containsExactly(
                0x41, 0x64, 0x4F, 0x43, 3, 0, 0, 0, 0x5A, 0x17, 0xAD, 0x0C);
        // raw block header: codec 0, flags 0, level 0, history 0, lengths equal, CRC, stream offset 0
        assertThat(Arrays.copyOfRange(vector, 12, 16)).containsExactly(0, 0, 0, 0);
        assertThat(FrameFormat.getInt(vector, 16)).isEqualTo(TestVectors.INPUT.length);
        assertThat(FrameFormat.getInt(vector, 20)).isEqualTo(TestVectors.INPUT.length);
        assertThat(FrameFormat.getLong(vector, 28)).isZero();
        // the check: CRC32C of the salt and header bytes 0-23
        CRC32C check = new CRC32C();
        check.update(new byte[] {0x5A, 0x17, (byte) 0xAD, 0x0C});
        check.update(vector, 12, 24);
        assertThat(FrameFormat.getInt(vector, 36)).isEqualTo((int) check.getValue());
        // what this encoder writes today for the vectors that cannot depend on a codec version
        assertThat(TestVectors.encodeSingle("raw")).isEqualTo(vector);

        byte[] v1 = resource(TestVectors.fileName(FrameFormat.VERSION_1, "raw"));
        assertThat(v1[4]).isEqualTo((byte) 1);
        assertThat(FrameFormat.getInt(v1, 20)).isEqualTo(TestVectors.INPUT.length);
        byte[] v2 = resource(TestVectors.fileName(FrameFormat.VERSION_2, "raw"));
        assertThat(v2[4]).isEqualTo((byte) 2);
        assertThat(Arrays.copyOfRange(v2, 12, v2.length)).isEqualTo(Arrays.copyOfRange(vector, 12, vector.length));
    }

    /**
     * Version 3: the fourth block is a reset point (flag 0x08) that starts history 1 anew, the
     * fifth continues it; a reader that starts at the reset point decodes the rest on its own.
     */
    @Test
    void theResetVectorMarksItsResetPointAndDecodesFromThere() throws IOException {
        byte[] vector = resource(TestVectors.resetVector(FrameFormat.VERSION));
        assertThat(decode(vector)).hasSize(5 * TestVectors.INPUT.length);
        // block by block: codec, flags, history id
        int[][] expected = {{2, 0, 1}, {2, 1, 1}, {2, 1, 1}, {2, FrameFormat.BLOCK_FLAG_RESET, 1}, {2, 1, 1}};
        List<Integer> frames = frames(vector, FrameFormat.VERSION);
        for (int i = 0; i < expected.length; i++) {
            int at = frames.get(i);
            assertThat(new int[] {vector[at] & 0xFF, vector[at + 1], vector[at + 3]}).as("block %d", i)
                    .containsExactly(expected[i]);
        }
        // The reset point's payload is as large as the first block's: it matches nothing before it.
        assertThat(FrameFormat.getInt(vector, frames.get(3) + 8)).isEqualTo(FrameFormat.getInt(vector, frames.get(0) + 8));
        // Read as a reader that joins the stream at the reset point: the last two blocks.
        byte[] decoded = decode(vector);
        assertThat(Frames.decodeJoining(vector, frames.get(3)))
                .isEqualTo(Arrays.copyOfRange(decoded, 3 * TestVectors.INPUT.length, decoded.length));
        assertThat(TestVectors.encodeReset()).as("what this encoder writes today").isEqualTo(vector);
    }

    /**
     * Version 3: a block of a history that does not shrink stays in the history's frame, stored
     * a few bytes longer than its content (zstd's raw block headers), and the frame goes on.
     */
    @Test
    void theIncompressibleVectorKeepsItsHistoryOpenAcrossABlockLongerThanItsContent() throws IOException {
        byte[] vector = resource(TestVectors.incompressibleVector(FrameFormat.VERSION));
        byte[] input = TestVectors.INPUT;
        byte[] noise = resource("noise.bin");
        assertThat(noise).isEqualTo(TestVectors.noise());
        assertThat(decode(vector)).isEqualTo(concat(input, noise, input));
        // block by block: codec, flags, history id
        int[][] expected = {{2, 0, 1}, {2, 1, 1}, {2, 1, 1}};
        List<Integer> frames = frames(vector, FrameFormat.VERSION);
        for (int i = 0; i < expected.length; i++) {
            int at = frames.get(i);
            assertThat(new int[] {vector[at] & 0xFF, vector[at + 1], vector[at + 3]}).as("block %d", i)
                    .containsExactly(expected[i]);
        }
        assertThat(FrameFormat.getInt(vector, frames.get(1) + 8)).as("the noise block's payload")
                .isGreaterThan(noise.length).isLessThanOrEqualTo(FrameFormat.maxHistoryPayload(noise.length));
        assertThat(FrameFormat.getInt(vector, frames.get(2) + 8)).as("the last block matches the first")
                .isLessThan(input.length / 20);
        assertThat(TestVectors.encodeIncompressible()).as("what this encoder writes today").isEqualTo(vector);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }
}
