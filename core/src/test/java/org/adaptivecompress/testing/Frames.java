package org.adaptivecompress.testing;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;

/**
 * Cuts a stream at its frame boundaries, for tests of damage that leaves every frame valid alone
 * (a frame lost, repeated or moved whole), and decodes it from any of them. Works on the first stream of the bytes given; whatever
 * follows its end marker (a concatenated stream) is kept as it is.
 */
public final class Frames {

    private Frames() {}

    /** Where each block's frame of the first stream starts, then where its end marker starts. */
    public static List<Integer> starts(byte[] stream) {
        List<Integer> starts = new ArrayList<>();
        int at = FrameFormat.STREAM_HEADER_LENGTH;
        while ((stream[at] & 0xFF) != FrameFormat.END_OF_STREAM) {
            starts.add(at);
            at += FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(stream, at + 8);
        }
        starts.add(at);
        return starts;
    }

    /**
     * Decodes the stream from its block frame at {@code frame} to its end marker, as a reader
     * that joins the stream there (a Hadoop split, a reader that seeks): its stream header, then
     * its blocks from there.
     */
    public static byte[] decodeJoining(byte[] stream, int frame) throws FrameFormatException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BlockDecoder decoder = new BlockDecoder()) {
            FrameParser parser = new FrameParser(decoder, FrameFormat.DEFAULT_MAX_BLOCK_LENGTH);
            parser.joinStream(stream, 0);
            for (int at = frame;; ) {
                BlockHeader header = parser.blockHeader(stream, at, at);
                if (header.isEndOfStream()) {
                    return out.toByteArray();
                }
                byte[] block = new byte[header.uncompressedLength()];
                decoder.decode(header, stream, at + FrameFormat.BLOCK_HEADER_LENGTH, block, 0, at);
                out.write(block, 0, block.length);
                at += FrameFormat.BLOCK_HEADER_LENGTH + header.storedLength();
            }
        }
    }

    /**
     * The stream with its block frames in the order {@code order} gives, by index; the end
     * marker and whatever follows it kept.
     */
    public static byte[] reordered(byte[] stream, int... order) {
        List<Integer> starts = starts(stream);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(stream, 0, FrameFormat.STREAM_HEADER_LENGTH);
        for (int i : order) {
            out.write(stream, starts.get(i), starts.get(i + 1) - starts.get(i));
        }
        int end = starts.get(starts.size() - 1);
        out.write(stream, end, stream.length - end);
        return out.toByteArray();
    }

    /** The stream without its block frame number {@code index}. */
    public static byte[] without(byte[] stream, int index) {
        int blocks = starts(stream).size() - 1;
        int[] order = new int[blocks - 1];
        for (int i = 0, j = 0; i < blocks; i++) {
            if (i != index) {
                order[j++] = i;
            }
        }
        return reordered(stream, order);
    }
}
