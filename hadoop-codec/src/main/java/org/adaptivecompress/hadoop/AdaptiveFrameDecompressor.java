package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.util.Objects;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.internal.format.PayloadBuffer;
import org.apache.hadoop.io.compress.Decompressor;

/**
 * Hadoop's {@link Decompressor} state machine over core's frame format: takes input in pieces
 * of any size, decodes one stream (stream header, blocks, end marker) and then reports
 * {@link #finished()} with {@link #getRemaining()} bytes of input left for a concatenated
 * stream, as {@code DecompressorStream} expects. Every header is validated before anything is
 * allocated for its payload, whose buffer then grows as its bytes arrive; damage surfaces as core's typed {@code FrameFormatException}s.
 *
 * <p>The codec's own input streams borrow this decompressor's {@link BlockDecoder}, so a pooled
 * instance also pools the native decompression contexts.
 */
public final class AdaptiveFrameDecompressor implements Decompressor {

    private final BlockDecoder decoder = new BlockDecoder();
    private final FrameParser parser;
    private BlockHeader header;
    private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
    private byte[] stored = new byte[0];
    private byte[] block = new byte[0];

    private byte[] input;
    private int inputOffset;
    private int inputLength;

    private boolean inPayload;
    private boolean finished;
    private int have;
    private long position;
    private long headerPosition;
    private int outPos;
    private int outLimit;
    private boolean ended;

    /** A decompressor that rejects blocks declaring more than the settings' maximum block length. */
    public AdaptiveFrameDecompressor(AdaptiveCodecSettings settings) {
        this.parser = Objects.requireNonNull(settings, "settings is null").newParser(decoder);
    }

    BlockDecoder blockDecoder() {
        ensureNotEnded();
        return decoder;
    }

    @Override
    public void setInput(byte[] b, int off, int len) {
        ensureNotEnded();
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "b is null").length);
        input = b;
        inputOffset = off;
        inputLength = len;
    }

    @Override
    public boolean needsInput() {
        return inputLength == 0 && outPos == outLimit && !finished;
    }

    @Override
    public void setDictionary(byte[] b, int off, int len) {
        throw new UnsupportedOperationException(
                "the adaptive codec has no preset dictionaries: every block must decode on its own");
    }

    @Override
    public boolean needsDictionary() {
        return false;
    }

    @Override
    public boolean finished() {
        return finished && outPos == outLimit;
    }

    @Override
    public int decompress(byte[] b, int off, int len) throws IOException {
        ensureNotEnded();
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "b is null").length);
        while (outPos == outLimit) {
            if (finished || inputLength == 0) {
                return 0;
            }
            step();
        }
        int n = Math.min(len, outLimit - outPos);
        System.arraycopy(block, outPos, b, off, n);
        outPos += n;
        return n;
    }

    /** Consumes input towards the next stream header, block header or payload and acts on it once whole. */
    private void step() throws IOException {
        if (!parser.inStream() && !finished) {
            if (fill(headerBytes, FrameFormat.STREAM_HEADER_LENGTH)) {
                parser.streamHeader(headerBytes, 0);
            }
        } else if (!inPayload) {
            if (fill(headerBytes, parser.blockHeaderLength())) {
                headerPosition = position - parser.blockHeaderLength();
                header = parser.blockHeader(headerBytes, 0, headerPosition);
                if (header.isEndOfStream()) {
                    finished = true;
                } else {
                    inPayload = true;
                }
            }
        } else if (fillPayload()) {
            inPayload = false;
            if (block.length < header.uncompressedLength()) {
                block = new byte[header.uncompressedLength()];
            }
            decoder.decode(header, stored, 0, block, 0, headerPosition);
            outPos = 0;
            outLimit = header.uncompressedLength();
        }
    }

    /** {@link #fill} for the payload, growing {@link #stored} as its bytes arrive rather than ahead of them. */
    private boolean fillPayload() {
        int length = header.storedLength();
        while (have < length && inputLength > 0) {
            stored = PayloadBuffer.roomFor(stored, have, length);
            take(stored, Math.min(stored.length, length) - have);
        }
        if (have < length) {
            return false;
        }
        have = 0;
        return true;
    }

    /** Copies input until {@code dst} holds {@code length} bytes; true (and restarts counting) once it does. */
    private boolean fill(byte[] dst, int length) {
        take(dst, length - have);
        if (have < length) {
            return false;
        }
        have = 0;
        return true;
    }

    /** Copies up to {@code wanted} bytes of input to {@code dst[have...]}. */
    private void take(byte[] dst, int wanted) {
        int n = Math.min(wanted, inputLength);
        System.arraycopy(input, inputOffset, dst, have, n);
        have += n;
        inputOffset += n;
        inputLength -= n;
        position += n;
    }

    /** Input bytes not consumed: after {@link #finished()}, the start of a concatenated stream. */
    @Override
    public int getRemaining() {
        return inputLength;
    }

    /**
     * Ready for a new stream. A stream cut short before its end marker is the caller's to
     * report: {@code DecompressorStream} throws an {@code EOFException} when input ends while
     * this decompressor is not {@link #finished()}.
     */
    @Override
    public void reset() {
        input = null;
        inputOffset = 0;
        inputLength = 0;
        parser.reset();
        inPayload = false;
        finished = false;
        have = 0;
        position = 0;
        outPos = 0;
        outLimit = 0;
    }

    /** Frees the native decompression contexts; the decompressor cannot be used afterwards. */
    @Override
    public void end() {
        if (!ended) {
            ended = true;
            reset();
            decoder.close();
        }
    }

    private void ensureNotEnded() {
        if (ended) {
            throw new IllegalStateException("decompressor has been ended");
        }
    }
}
