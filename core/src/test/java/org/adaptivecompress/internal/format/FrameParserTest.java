package org.adaptivecompress.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.zip.CRC32C;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.junit.jupiter.api.Test;

/** The sequence rules, on hand-made headers: each block where the ones before it end. */
class FrameParserTest {

    private static final int SALT = 0x0BADCAFE;
    private final CRC32C crc = new CRC32C();
    private final byte[] streamHeader = new byte[FrameFormat.STREAM_HEADER_LENGTH];
    private final byte[] header = new byte[FrameFormat.BLOCK_HEADER_LENGTH];

    FrameParserTest() {
        FrameFormat.writeStreamHeader(streamHeader, 0, SALT);
    }

    private byte[] rawBlock(int length, long streamOffset) {
        FrameFormat.writeBlockHeader(header, 0, SALT, 0, 0, length, length, 0, streamOffset, crc);
        return header;
    }

    private byte[] endMarker(long contentLength) {
        FrameFormat.writeBlockHeader(header, 0, SALT, FrameFormat.END_OF_STREAM, 0, 0, 0, 0, contentLength, crc);
        return header;
    }

    @Test
    void aStreamReadFromItsHeaderChecksEveryOffsetFromZero() throws FrameFormatException {
        FrameParser parser = new FrameParser(new BlockDecoder(), 1 << 20);
        parser.streamHeader(streamHeader, 0);
        assertThatThrownBy(() -> parser.blockHeader(rawBlock(100, 5), 0, 12))
                .isInstanceOf(BlockSequenceException.class)
                .hasMessageContaining("starts at content byte 5, but the blocks before it end at 0");

        parser.streamHeader(streamHeader, 0);
        assertThat(parser.blockHeader(rawBlock(100, 0), 0, 12).streamOffset()).isZero();
        assertThat(parser.blockHeader(rawBlock(50, 100), 0, 140).uncompressedLength()).isEqualTo(50);
        assertThatThrownBy(() -> parser.blockHeader(endMarker(149), 0, 218))
                .isInstanceOf(BlockSequenceException.class).hasMessageContaining("says its stream holds 149 bytes");
    }

    @Test
    void aReaderThatJoinsInsideAStreamTakesTheFirstOffsetAndChecksTheRest() throws FrameFormatException {
        FrameParser parser = new FrameParser(new BlockDecoder(), 1 << 20);
        parser.joinStream(streamHeader, 0);
        parser.blockHeader(rawBlock(100, 123_456), 0, 99_000);
        parser.blockHeader(rawBlock(100, 123_556), 0, 99_128);
        assertThatThrownBy(() -> parser.blockHeader(rawBlock(100, 123_756), 0, 99_256))
                .isInstanceOf(BlockSequenceException.class).hasMessageContaining("end at 123656");
    }

    @Test
    void theEndMarkerEndsTheStreamAndAVersion1StreamHasNoOffsets() throws FrameFormatException {
        FrameParser parser = new FrameParser(new BlockDecoder(), 1 << 20);
        parser.streamHeader(streamHeader, 0);
        parser.blockHeader(rawBlock(10, 0), 0, 12);
        parser.blockHeader(endMarker(10), 0, 50);
        assertThat(parser.inStream()).isFalse();

        byte[] v1 = streamHeader.clone();
        v1[4] = FrameFormat.VERSION_1;
        parser.streamHeader(v1, 0);
        assertThat(parser.blockHeaderLength()).isEqualTo(FrameFormat.BLOCK_HEADER_LENGTH_V1);
        FrameFormat.writeBlockHeaderV1(header, 0, SALT, 0, 0, 0, 0, 10, 10, 0, crc);
        assertThat(parser.blockHeader(header, 0, 12).streamOffset()).isEqualTo(-1);
    }
}
