package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.Objects;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.format.BlockDecoder;
import org.adaptivecompress.format.BlockHeader;
import org.adaptivecompress.format.FrameFormat;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.TruncatedStreamException;

/**
 * Decodes a stream written by {@link AdaptiveOutputStream} (or any writer of frame format v1),
 * verifying every block's checksum.
 *
 * <p>It needs none of the writer's settings: each block names its codec. Bad input fails with
 * a {@link FrameFormatException} subtype that says what is wrong and at which offset, and no
 * allocation is ever larger than the configured maximum block length. Once a read has failed,
 * every later read throws the same exception, and once it is closed every read throws.
 *
 * <p>By default reading stops at the end-of-stream marker and leaves the underlying stream just
 * after it, so a protocol may carry more data behind a compressed stream. With
 * {@link Builder#concatenated(boolean) concatenated(true)} streams written one after another
 * (as {@code cat a.adc b.adc} makes) read as one.
 */
public final class AdaptiveInputStream extends InputStream {

    private final InputStream in;
    private final int maxBlockLength;
    private final boolean concatenated;
    private final BlockHeader header = new BlockHeader();
    private final BlockDecoder decoder = new BlockDecoder();
    private final byte[] headerBytes = new byte[FrameFormat.BLOCK_HEADER_LENGTH];
    private byte[] stored = new byte[0];
    private byte[] block = new byte[0];
    private int position;
    private int limit;
    private long offset;
    private int salt;
    /** Whether the stream being read allows histories. */
    private boolean history;
    /** Bytes of the next block header already read, with the last payload, into {@link #headerBytes}. */
    private int headerPrefetched;
    private boolean inStream;
    private boolean ended;
    private IOException failure;
    private boolean closed;

    /** Decodes {@code in} with the default 4 MiB ceiling on block length. */
    public AdaptiveInputStream(InputStream in) {
        this(in, builder());
    }

    private AdaptiveInputStream(InputStream in, Builder b) {
        this.in = Objects.requireNonNull(in, "in is null");
        this.maxBlockLength = b.maxBlockLength;
        this.concatenated = b.concatenated;
    }

    /** A builder for streams with other options. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (position == limit && !fill()) {
            return -1;
        }
        return block[position++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        if (position == limit && !fill()) {
            return -1;
        }
        int n = Math.min(len, limit - position);
        System.arraycopy(block, position, b, off, n);
        position += n;
        return n;
    }

    /** Decoded bytes that can be read without blocking. */
    @Override
    public int available() throws IOException {
        ensureOpen();
        return limit - position;
    }

    /** Closes the underlying stream and frees the decompressors. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        decoder.close();
        in.close();
    }

    /** Decodes the next block; false at the end of the (last) stream. */
    private boolean fill() throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            return decodeNextBlock();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    private boolean decodeNextBlock() throws IOException {
        while (!ended) {
            if (!inStream) {
                if (!readStreamHeader()) {
                    ended = true;
                    return false;
                }
                continue;
            }
            long blockOffset = offset - headerPrefetched;
            int present = headerPrefetched;
            headerPrefetched = 0;
            if (!readFully(headerBytes, present, FrameFormat.BLOCK_HEADER_LENGTH, "block header")) {
                throw new TruncatedStreamException("stream ends at offset " + offset
                        + " without its end-of-stream marker");
            }
            header.parse(headerBytes, 0, salt, history, maxBlockLength, blockOffset);
            if (header.isEndOfStream()) {
                inStream = false;
                ended = !concatenated;
                continue;
            }
            int room = header.storedLength() + FrameFormat.BLOCK_HEADER_LENGTH;
            if (header.codec() == CodecType.RAW) {
                // Stored as is: read straight into place, one copy fewer.
                block = atLeast(block, room);
                readPayload(block);
                decoder.verify(header, block, 0, blockOffset);
            } else {
                stored = atLeast(stored, room);
                block = atLeast(block, header.uncompressedLength());
                readPayload(stored);
                decoder.decode(header, stored, 0, block, 0, blockOffset);
            }
            position = 0;
            limit = header.uncompressedLength();
            return true;
        }
        return false;
    }

    private static byte[] atLeast(byte[] buffer, int length) {
        return buffer.length >= length ? buffer : new byte[length];
    }

    /**
     * Reads the block's payload into {@code dst[0, storedLength)}, and in the same reads as
     * much of the next block's header as comes with it: a payload is always followed by a
     * block header or the end marker, both {@value FrameFormat#BLOCK_HEADER_LENGTH} bytes,
     * so this never reads past the stream, and it saves a read call per block.
     */
    private void readPayload(byte[] dst) throws IOException {
        int storedLength = header.storedLength();
        int upTo = storedLength + FrameFormat.BLOCK_HEADER_LENGTH;
        int done = 0;
        while (done < storedLength) {
            int n = in.read(dst, done, upTo - done);
            if (n < 0) {
                throw new TruncatedStreamException("stream ends at offset " + offset + " inside a block payload ("
                        + done + " of " + storedLength + " bytes present)");
            }
            done += n;
            offset += n;
        }
        headerPrefetched = done - storedLength;
        System.arraycopy(dst, storedLength, headerBytes, 0, headerPrefetched);
    }

    /**
     * Reads a stream header; false if the input ends cleanly where a concatenated stream could
     * have started.
     */
    private boolean readStreamHeader() throws IOException {
        if (!readFully(headerBytes, 0, FrameFormat.STREAM_HEADER_LENGTH, "stream header")) {
            if (offset == 0) {
                throw new TruncatedStreamException("input is empty: no stream header");
            }
            return false;
        }
        salt = FrameFormat.readStreamHeader(headerBytes, 0);
        history = FrameFormat.usesHistory(headerBytes, 0);
        decoder.newStream(history);
        inStream = true;
        return true;
    }

    /**
     * Fills {@code dst[present, total)}, the first {@code present} bytes being there already;
     * false if the input ends before the first byte of all (a clean boundary), a
     * {@link TruncatedStreamException} if it ends after some.
     */
    private boolean readFully(byte[] dst, int present, int total, String what) throws IOException {
        int done = present;
        while (done < total) {
            int n = in.read(dst, done, total - done);
            if (n < 0) {
                if (done == 0) {
                    return false;
                }
                throw new TruncatedStreamException("stream ends at offset " + offset + " inside a " + what
                        + " (" + done + " of " + total + " bytes present)");
            }
            done += n;
            offset += n;
        }
        return true;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream is closed");
        }
    }

    /** Options of an {@link AdaptiveInputStream}. */
    public static final class Builder {
        private int maxBlockLength = FrameFormat.DEFAULT_MAX_BLOCK_LENGTH;
        private boolean concatenated;

        private Builder() {}

        /**
         * Ceiling on a block's uncompressed and stored length, checked before allocating;
         * default 4 MiB, at most 64 MiB. Must be at least the writer's block size.
         */
        public Builder maxBlockLength(int bytes) {
            this.maxBlockLength = FrameFormat.checkMaxBlockLength(bytes);
            return this;
        }

        /** Whether to go on reading streams that follow the first one's end marker; default false. */
        public Builder concatenated(boolean concatenated) {
            this.concatenated = concatenated;
            return this;
        }

        /** A stream that decodes {@code in}; closing it closes {@code in}. */
        public AdaptiveInputStream build(InputStream in) {
            return new AdaptiveInputStream(in, this);
        }

        /** A stream that decodes a blocking {@code channel}; closing it closes the channel. */
        public AdaptiveInputStream build(ReadableByteChannel channel) {
            return build(Channels.newInputStream(Objects.requireNonNull(channel, "channel is null")));
        }
    }
}
