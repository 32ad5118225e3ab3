package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.ChecksumMismatchException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.DecompressionLimitException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.format.UnknownCodecException;
import org.adaptivecompress.format.UnsupportedVersionException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.Allocations;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every kind of bad input fails with its own exception type and a clear message, never wrong bytes. */
class CorruptInputTest {

    private static final int SALT = 0x1234ABCD;
    private static final byte[] DATA = DataKind.TEXT.generate(40_000);

    private static byte[] validStream(int rung) throws IOException {
        return validStream(rung, false);
    }

    private static byte[] validStream(int rung, boolean history) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder()
                .ladder("raw,lz4,zstd:3,xz:1,deflate:6").controller(() -> new FixedController(rung))
                .blockSize(16 * 1024).history(history).build(sink)) {
            out.write(DATA);
        }
        return sink.toByteArray();
    }

    private static Throwable readAll(byte[] stream) {
        return catchThrowable(() -> decode(stream));
    }

    private static byte[] decode(byte[] stream) throws IOException {
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    /** A stream header with a fixed salt followed by one hand-made block header. */
    private static byte[] withBlockHeader(int codec, int uncompressed, int stored, int crc, int payload) {
        byte[] bytes = new byte[FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + payload];
        FrameFormat.writeStreamHeader(bytes, 0, SALT);
        FrameFormat.writeBlockHeader(bytes, FrameFormat.STREAM_HEADER_LENGTH, SALT, codec, 0, uncompressed, stored,
                crc, 0, new CRC32C());
        return bytes;
    }

    @ParameterizedTest(name = "rung {0}, history {1}")
    @CsvSource({"0, false", "1, false", "2, false", "3, false", "4, false", "2, true", "3, true"})
    void everyFlippedBitIsDetectedOrHarmlessButNeverYieldsWrongBytes(int rung, boolean history) throws IOException {
        byte[] valid = validStream(rung, history);
        int harmless = 0;
        for (int i = 0; i < valid.length; i += Math.max(1, valid.length / 400)) {
            byte[] damaged = valid.clone();
            damaged[i] ^= 0x10;
            Throwable failure = readAll(damaged);
            if (failure == null) {
                // A bit the codec never reads (padding of the last byte): the output must be intact.
                assertThat(decode(damaged)).as("flip at offset %d", i).isEqualTo(DATA);
                harmless++;
            } else {
                assertThat(failure).as("flip at offset %d of %d", i, valid.length)
                        .isInstanceOf(FrameFormatException.class);
            }
        }
        assertThat(harmless).as("flips the codec never reads").isLessThanOrEqualTo(3);
    }

    @ParameterizedTest(name = "history {0}")
    @ValueSource(booleans = {false, true})
    void everyTruncationIsReportedAsTruncated(boolean history) throws IOException {
        byte[] valid = validStream(2, history);
        for (int length = 0; length < valid.length; length += 1 + length / 16) {
            Throwable failure = readAll(Arrays.copyOf(valid, length));
            assertThat(failure).as("truncated to %d of %d", length, valid.length)
                    .isInstanceOf(TruncatedStreamException.class);
        }
        assertThat(readAll(Arrays.copyOf(valid, valid.length - 1)))
                .hasMessageContaining("inside a block header");
        assertThat(readAll(new byte[0])).hasMessageContaining("input is empty");
    }

    @Test
    void aForeignStreamFailsWithBadMagic() {
        assertThat(readAll("PK\u0003\u0004 a zip file, not ours".getBytes()))
                .isInstanceOf(BadMagicException.class)
                .hasMessageContaining("not an adaptive-compress stream");
    }

    @Test
    void unknownStreamFlagsAndReservedBytesAreNamedApart() throws IOException {
        byte[] flags = validStream(1);
        flags[5] = (byte) 0x81;
        assertThat(readAll(flags)).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("flag bits 0x80, which format version 3 does not define");
        byte[] reserved = validStream(1);
        reserved[7] = 3;
        assertThat(readAll(reserved)).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("reserved bytes are 0x0003");
        byte[] window = validStream(1);
        window[6] = 21;
        assertThat(readAll(window)).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("declares a history window of log2 21 in a stream without histories");
        byte[] tooWide = validStream(1);
        tooWide[5] = FrameFormat.STREAM_FLAG_HISTORY;
        tooWide[6] = 27;
        assertThat(readAll(tooWide)).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("allows 20 to 26");
    }

    @Test
    void aNewerVersionFailsWithUnsupportedVersion() throws IOException {
        byte[] stream = validStream(1);
        stream[4] = 4;
        assertThat(readAll(stream)).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("format version 4; this reader supports versions 1 to 3");
    }

    @Test
    void anUnknownCodecIdFailsWithUnknownCodec() {
        assertThat(readAll(withBlockHeader(9, 10, 10, 0, 10)))
                .isInstanceOf(UnknownCodecException.class)
                .hasMessageContaining("unknown codec id 9");
    }

    @Test
    void anOversizedLengthFieldFailsBeforeAnythingIsAllocated() {
        assertThat(readAll(withBlockHeader(2, Integer.MAX_VALUE, 100, 0, 0)))
                .isInstanceOf(OversizedBlockException.class)
                .hasMessageContaining("over this reader's maximum block length");
        assertThat(readAll(withBlockHeader(2, 100, -1, 0, 0)))
                .isInstanceOf(OversizedBlockException.class)
                .hasMessageContaining("4294967295 stored bytes");
    }

    @Test
    void theReadersCeilingIsConfigurable() throws IOException {
        byte[] stream = validStream(0);
        assertThatThrownBy(() -> AdaptiveInputStream.builder().maxBlockLength(8 * 1024)
                .build(new ByteArrayInputStream(stream)).readAllBytes())
                .isInstanceOf(OversizedBlockException.class);
        assertThatThrownBy(() -> AdaptiveInputStream.builder().maxBlockLength(128 << 20))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWrongChecksumFailsWithChecksumMismatch() {
        byte[] stream = withBlockHeader(0, 4, 4, 0xDEADBEEF, 4);
        System.arraycopy("data".getBytes(), 0, stream, stream.length - 4, 4);
        assertThat(readAll(stream))
                .isInstanceOf(ChecksumMismatchException.class)
                .hasMessageContaining("CRC32C");
    }

    @Test
    void aHeaderOfAnotherStreamFailsItsHeaderCheck() {
        byte[] stream = withBlockHeader(0, 4, 4, 0, 4);
        FrameFormat.putInt(stream, 8, SALT + 1); // the stream header now carries another salt
        assertThat(readAll(stream)).isInstanceOf(CorruptFrameException.class).hasMessageContaining("header check");
    }

    @ParameterizedTest(name = "rung {0}")
    @ValueSource(ints = {0, 1, 2})
    void aFrameLostRepeatedOrMovedWholeFailsAtTheNextBlock(int rung) throws IOException {
        byte[] stream = validStream(rung);
        assertThat(Frames.starts(stream)).hasSize(4); // three blocks, then the end marker
        assertThat(decode(Frames.reordered(stream, 0, 1, 2))).isEqualTo(DATA);

        for (int[] order : new int[][] {{0, 2}, {0, 1, 1, 2}, {1, 0, 2}, {0, 1}}) {
            assertThat(readAll(Frames.reordered(stream, order))).as("frames %s", Arrays.toString(order))
                    .isInstanceOf(BlockSequenceException.class)
                    .hasMessageContaining("missing, repeated or out of order");
        }
    }

    @Test
    void anEndMarkerWithoutADigestIsAcceptedAndTheOffsetsStillSeeALostFrame() throws IOException {
        byte[] stream = validStream(1);
        int end = stream.length - FrameFormat.BLOCK_HEADER_LENGTH;
        FrameFormat.writeBlockHeader(stream, end, FrameFormat.getInt(stream, 8), FrameFormat.END_OF_STREAM, 0, 0, 0,
                0, DATA.length, new CRC32C());
        assertThat(decode(stream)).isEqualTo(DATA);
        // Without the digest, the blocks' stream offsets catch a lost frame, at the block after it.
        assertThat(readAll(Frames.reordered(stream, 0, 2))).isInstanceOf(BlockSequenceException.class)
                .hasMessageContaining("starts at content byte " + 2 * 16 * 1024 + ", but the blocks before it end at "
                        + 16 * 1024);
    }

    /** A lost last frame: the end marker says how much content the stream holds. */
    @Test
    void theEndMarkerCountsTheContent() throws IOException {
        byte[] stream = validStream(1);
        int blocks = Frames.starts(stream).size() - 1;
        assertThat(readAll(Frames.without(stream, blocks - 1))).isInstanceOf(BlockSequenceException.class)
                .hasMessageContaining("says its stream holds " + DATA.length + " bytes");
    }

    @Test
    void concatenatedStreamsEachCheckTheirOwnDigest() throws IOException {
        byte[] one = validStream(1);
        byte[] two = validStream(2);
        byte[] both = Arrays.copyOf(one, one.length + two.length);
        System.arraycopy(two, 0, both, one.length, two.length);
        assertThat(decodeConcatenated(both)).hasSize(2 * DATA.length);
        byte[] secondLosesAFrame = Frames.reordered(two, 0, 2);
        byte[] broken = Arrays.copyOf(one, one.length + secondLosesAFrame.length);
        System.arraycopy(secondLosesAFrame, 0, broken, one.length, secondLosesAFrame.length);
        assertThat(catchThrowable(() -> decodeConcatenated(broken))).isInstanceOf(BlockSequenceException.class);
    }

    private static byte[] decodeConcatenated(byte[] streams) throws IOException {
        AdaptiveInputStream.Builder concatenated = AdaptiveInputStream.builder().concatenated(true);
        try (InputStream in = concatenated.build(new ByteArrayInputStream(streams))) {
            return in.readAllBytes();
        }
    }

    @Test
    void readsAfterAFailureKeepFailing() throws IOException {
        byte[] stream = validStream(1);
        stream[stream.length / 2] ^= 1;
        InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream));
        Throwable first = catchThrowable(in::readAllBytes);
        assertThat(first).isInstanceOf(FrameFormatException.class);
        assertThat(catchThrowable(in::read)).isSameAs(first);
    }

    /**
     * A header declaring a 64 MiB block, then a trickle of payload and a stall (here, the end of
     * input): the reader holds what arrived, not what was announced.
     */
    @ParameterizedTest(name = "codec id {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void aDeclaredBlockIsNotAllocatedBeforeItsPayloadArrives(int codecId) {
        byte[] stalled = Allocations.headerThenStall(codecId, FrameFormat.MAX_BLOCK_LENGTH_LIMIT, 1000);
        AdaptiveInputStream.Builder reader = AdaptiveInputStream.builder().maxBlockLength(FrameFormat.MAX_BLOCK_LENGTH_LIMIT);
        byte[] into = new byte[8192];

        long allocated = Allocations.duringCall(() -> {
            try (InputStream in = reader.build(new ByteArrayInputStream(stalled))) {
                in.read(into);
            }
        });

        assertThatThrownBy(() -> reader.build(new ByteArrayInputStream(stalled)).read(into))
                .isInstanceOf(TruncatedStreamException.class).hasMessageContaining("1000 of 67108864 bytes");
        assertThat(allocated).as("bytes allocated for a block whose payload never came").isLessThan(256 * 1024);
    }
    /** The optional caps for untrusted input: checked on each header, before the block is decoded. */
    @Test
    void theStreamAndExpansionCapsRefuseABlockBeforeDecodingIt() throws IOException {
        byte[] zeros = new byte[1 << 20];
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder("raw,zstd:3")
                .controller(() -> new FixedController(1)).blockSize(256 * 1024).build(sink)) {
            out.write(zeros);
        }
        byte[] bomb = sink.toByteArray();

        assertThat(catchThrowable(() -> AdaptiveInputStream.builder().maxExpansionRatio(1000)
                .build(new ByteArrayInputStream(bomb)).readAllBytes()))
                .isInstanceOf(DecompressionLimitException.class)
                .hasMessageContaining("declares 262144 bytes from a").hasMessageContaining("limit of 1000 times");
        assertThat(catchThrowable(() -> AdaptiveInputStream.builder().maxStreamBytes(600_000)
                .build(new ByteArrayInputStream(bomb)).readAllBytes()))
                .isInstanceOf(DecompressionLimitException.class)
                .hasMessageContaining("past this reader's limit of 600000 bytes (524288 so far)");
        assertThat(AdaptiveInputStream.builder().maxStreamBytes(zeros.length).maxExpansionRatio(100_000)
                .build(new ByteArrayInputStream(bomb)).readAllBytes()).isEqualTo(zeros);
    }
}
