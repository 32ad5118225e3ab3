package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.Objects;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.internal.format.PayloadBuffer;

/**
 * Decodes a stream written by {@link AdaptiveOutputStream} (or any writer of the frame format, version 1 or 2),
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

    /**
     * No limit: the default of {@link Builder#maxStreamBytes} and {@link Builder#maxExpansionRatio},
     * and of the same limits of the Netty decoder and the Hadoop codec.
     */
    public static final long UNLIMITED = FrameParser.UNLIMITED;

    /** {@link #fill}'s result when the stream has ended. */
    private static final int END = -1;
    /** {@link #fill}'s result when it decoded a block into {@link #block}. */
    private static final int BUFFERED = 0;

    private final InputStream in;
    private final int maxBlockLength;
    private final boolean concatenated;
    private final BlockDecoder decoder = new BlockDecoder();
    private final FrameParser parser;
    private BlockHeader header;
    private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
    private byte[] stored = new byte[0];
    private byte[] block = new byte[0];
    private int position;
    private int limit;
    private long offset;
    /** Bytes of the next block header already read, with the last payload, into {@link #headerBytes}. */
    private int headerPrefetched;
    private boolean ended;
    private IOException failure;
    private boolean closed;

    /** Decodes {@code in} with the default 4 MiB ceiling on block length. */
    public AdaptiveInputStream(InputStream in) {
        this(in, builder());
    }

    private AdaptiveInputStream(InputStream in, Builder b) {
        this.in = Objects.requireNonNull(in, "in is null");
        this.maxBlockLength = b.budget == null ? b.maxBlockLength
                : Math.min(b.maxBlockLength, b.budget.maxBlockLength());
        this.concatenated = b.concatenated;
        this.parser = new FrameParser(decoder, maxBlockLength).limit(b.maxStreamBytes, b.maxExpansionRatio)
                .maxWindowLog(b.maxWindowLog);
        if (b.budget != null) {
            parser.accept(b.budget);
        }
    }

    /** A builder for streams with other options. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (position == limit && fill(null, 0, 0) == END) {
            return -1;
        }
        return block[position++] & 0xFF;
    }

    /**
     * Reads up to {@code len} decoded bytes, never more than what is left of the current block.
     * With no block pending and {@code len} at least the next block's length, that block is
     * decoded (or a raw one read) straight into {@code b}, saving a copy, as
     * {@link java.io.BufferedInputStream} reads past its buffer: its checksum is verified there
     * before this returns, and if it does not match the read throws, leaving what it wrote in
     * {@code b[off, off + len)} unspecified.
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        if (position == limit) {
            int filled = fill(b, off, len);
            if (filled != BUFFERED) {
                return filled; // END, or a block decoded into b
            }
        }
        int n = Math.min(len, limit - position);
        System.arraycopy(block, position, b, off, n);
        position += n;
        return n;
    }

    /**
     * Skips decoded bytes without copying them out. Skipped blocks are decoded and verified all
     * the same, so a corrupt one fails the skip as it would a read.
     */
    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        long skipped = 0;
        while (skipped < n && (position < limit || fill(null, 0, 0) != END)) {
            int step = (int) Math.min(n - skipped, limit - position);
            position += step;
            skipped += step;
        }
        return skipped;
    }

    /** Writes every remaining decoded byte to {@code out} straight from the decoded blocks, one write a block. */
    @Override
    public long transferTo(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out is null");
        ensureOpen();
        long transferred = 0;
        while (position < limit || fill(null, 0, 0) != END) {
            out.write(block, position, limit - position);
            transferred += limit - position;
            position = limit;
        }
        return transferred;
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

    /**
     * Decodes the next block: into {@code dst[off, off + len)} if it fits there whole and
     * {@code dst} is not null (returning its length), else into {@link #block} (returning
     * {@link #BUFFERED}); {@link #END} at the end of the (last) stream.
     */
    private int fill(byte[] dst, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            return decodeNextBlock(dst, off, len);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    private int decodeNextBlock(byte[] dst, int off, int len) throws IOException {
        while (!ended) {
            if (!parser.inStream()) {
                if (!readStreamHeader()) {
                    ended = true;
                    return END;
                }
                continue;
            }
            long blockOffset = offset - headerPrefetched;
            int present = headerPrefetched;
            headerPrefetched = 0;
            if (!readFully(headerBytes, present, parser.blockHeaderLength(), "block header")) {
                throw new TruncatedStreamException("stream ends at offset " + offset
                        + " without its end-of-stream marker");
            }
            header = parser.blockHeader(headerBytes, 0, blockOffset);
            if (header.isEndOfStream()) {
                ended = !concatenated;
                continue;
            }
            int length = header.uncompressedLength();
            boolean direct = dst != null && length <= len;
            byte[] target;
            int targetOffset = direct ? off : 0;
            if (header.codec() == CodecType.RAW) {
                // Stored as is: read straight into place, one copy fewer. Into the caller's
                // array without the next header, since bytes past the count must stay as they were.
                target = direct ? readPayload(dst, off, false) : readPayload(block, 0, true);
                decoder.verify(header, target, targetOffset, blockOffset);
            } else {
                stored = readPayload(stored, 0, true);
                // Allocated once the payload is here, so a stalled peer holds no more than it sent.
                target = direct ? dst : atLeast(block, length);
                decoder.decode(header, stored, 0, target, targetOffset, blockOffset);
            }
            if (direct) {
                return length;
            }
            block = target;
            position = 0;
            limit = length;
            return BUFFERED;
        }
        return END;
    }

    private static byte[] atLeast(byte[] buffer, int length) {
        return buffer.length >= length ? buffer : new byte[length];
    }

    /**
     * Reads the block's payload into {@code dst[off, off + storedLength)}, and if
     * {@code withNextHeader}, in the same reads as much of the next block's header as comes with
     * it (into the {@link FrameParser#blockHeaderLength()} bytes after the payload): a payload is
     * always followed by a block header or the end marker, both that long, so this never reads
     * past the stream, and it saves a read call per block. {@code dst} grows as the bytes arrive
     * ({@link PayloadBuffer}); returns it, or the larger array that replaced it.
     */
    private byte[] readPayload(byte[] dst, int off, boolean withNextHeader) throws IOException {
        int storedLength = header.storedLength();
        int upTo = storedLength + (withNextHeader ? parser.blockHeaderLength() : 0);
        int done = 0;
        while (done < storedLength) {
            dst = PayloadBuffer.roomFor(dst, off + done, off + upTo);
            int n = in.read(dst, off + done, Math.min(upTo, dst.length - off) - done);
            if (n < 0) {
                throw new TruncatedStreamException("stream ends at offset " + offset + " inside a block payload ("
                        + done + " of " + storedLength + " bytes present)");
            }
            done += n;
            offset += n;
        }
        headerPrefetched = done - storedLength;
        System.arraycopy(dst, off + storedLength, headerBytes, 0, headerPrefetched);
        return dst;
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
        parser.streamHeader(headerBytes, 0);
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
        private long maxStreamBytes = UNLIMITED;
        private long maxExpansionRatio = UNLIMITED;
        private int maxWindowLog = FrameFormat.DEFAULT_MAX_WINDOW_LOG;
        private ReceiverBudget budget;

        private Builder() {}

        /**
         * Ceiling on a block's uncompressed and stored length, checked before allocating;
         * default 4 MiB, at most 64 MiB. Must be at least the writer's block size.
         */
        public Builder maxBlockLength(int bytes) {
            this.maxBlockLength = FrameFormat.checkMaxBlockLength(bytes);
            return this;
        }

        /**
         * The most bytes one stream may decode to; a block that would pass it fails the read with
         * a {@link org.adaptivecompress.format.DecompressionLimitException} before it is decoded.
         * Unlimited by default.
         */
        public Builder maxStreamBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxStreamBytes must not be negative, was " + bytes);
            }
            this.maxStreamBytes = bytes;
            return this;
        }

        /**
         * The most times a block's length may be its payload's (zstd reaches thousands on runs
         * of one byte); a block declaring more fails the read with a
         * {@link org.adaptivecompress.format.DecompressionLimitException} before it is decoded.
         * Unlimited by default.
         */
        public Builder maxExpansionRatio(long ratio) {
            if (ratio < 1) {
                throw new IllegalArgumentException("maxExpansionRatio must be at least 1, was " + ratio);
            }
            this.maxExpansionRatio = ratio;
            return this;
        }

        /**
         * The largest history window a stream may declare, a power of two from 1 MiB to 64 MiB;
         * default 8 MiB. A reader holds, for each history a stream opens (at most 16), up to a
         * window, a 2 MiB prime and about half a megabyte of decoder state, and 4 MiB per stream
         * (the tail primes come from and a prime buffer), so this bounds its memory; a stream
         * that declares more fails the read with a
         * {@link org.adaptivecompress.format.DecompressionLimitException} at its header, before
         * anything is allocated for it.
         */
        public Builder maxWindow(int bytes) {
            this.maxWindowLog = FrameFormat.checkWindowSize(bytes);
            return this;
        }

        /**
         * Refuses what {@code budget} does not accept (a codec or level outside it, a longer
         * block, a larger window, or histories where it takes none), with a
         * {@link org.adaptivecompress.format.DecompressionLimitException} before decoding: the
         * reader's side of a budget it advertised to the writer. Its limits apply on top of
         * {@link #maxBlockLength} and {@link #maxWindow}, the lower of each winning. None by default.
         */
        public Builder accept(ReceiverBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget is null");
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
