package org.adaptivecompress.stream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Objects;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;

/**
 * Reads an adaptive-compress file at any content offset: a read-only {@link SeekableByteChannel}
 * whose {@link #position} and {@link #size} count uncompressed bytes, over every stream
 * concatenated in the file.
 *
 * <p>A seek starts decoding at the last block at or before the position that decodes without
 * the blocks before it (a stream's first block, a reset point, or any block of a stream without
 * histories) and decodes forward to the position: reading at an offset costs at most the
 * blocks since the reset point before it, one reset interval
 * ({@link org.adaptivecompress.engine.AdaptiveCompressionOptions#resetInterval}; files written by
 * the Hadoop codec and the CLI have one every 8 MiB). Where reset points are found comes from
 * walking the block headers from the file's start, 28 bytes a block, as far as the seek needs;
 * {@link #size()} walks them all. Reading on from where the last read ended decodes on, without
 * seeking.
 *
 * <p>Every block is checked as {@link AdaptiveInputStream} checks it (header, CRC32C, sequence,
 * limits), and the walk checks each stream's digest; a damaged or truncated file fails the read
 * with a {@link FrameFormatException}. Not thread-safe, as a {@link SeekableByteChannel} need
 * not be; closing it closes the file.
 */
public final class AdaptiveSeekableChannel implements SeekableByteChannel {

    private final SeekableByteChannel file;
    private final SeekIndex index;
    private final BlockDecoder decoder = new BlockDecoder();
    private final FrameParser parser;
    private final int maxBlockLength;
    private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH,
            FrameFormat.BLOCK_HEADER_LENGTH)];
    private byte[] stored = new byte[0];
    private byte[] block = new byte[0];

    /** The content position the next read returns. */
    private long position;
    /** Content offset of {@link #block}'s first byte, and its length; -1 while none is decoded. */
    private long blockStart = -1;
    private int blockLength;
    /** Where the decoder reads next in the file, or -1 if it must seek to a start first. */
    private long fileOffset = -1;
    private boolean open = true;

    private AdaptiveSeekableChannel(SeekableByteChannel file, int maxBlockLength, int maxWindow) {
        this.file = Objects.requireNonNull(file, "file is null");
        this.maxBlockLength = FrameFormat.checkMaxBlockLength(maxBlockLength);
        int maxWindowLog = FrameFormat.checkWindowSize(maxWindow);
        this.index = new SeekIndex(file, maxBlockLength, maxWindowLog);
        this.parser = new FrameParser(decoder, maxBlockLength).maxWindowLog(maxWindowLog);
    }

    /**
     * Reads {@code file} with a reader's default limits: blocks of up to 4 MiB
     * ({@link FrameFormat#DEFAULT_MAX_BLOCK_LENGTH}), history windows of up to 8 MiB.
     */
    public static AdaptiveSeekableChannel open(SeekableByteChannel file) {
        return open(file, FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, 1 << FrameFormat.DEFAULT_MAX_WINDOW_LOG);
    }

    /**
     * Reads {@code file}, refusing blocks longer than {@code maxBlockLength} (at most 64 MiB)
     * and history windows over {@code maxWindow} (a power of two from 1 MiB to 64 MiB), as
     * {@link AdaptiveInputStream.Builder#maxBlockLength} and {@link AdaptiveInputStream.Builder#maxWindow} do.
     */
    public static AdaptiveSeekableChannel open(SeekableByteChannel file, int maxBlockLength, int maxWindow) {
        return new AdaptiveSeekableChannel(file, maxBlockLength, maxWindow);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (!inBlock(position) && !decodeBlockHoldingAfterFailure(position)) {
            return -1;
        }
        int from = (int) (position - blockStart);
        int n = Math.min(dst.remaining(), blockLength - from);
        dst.put(block, from, n);
        position += n;
        return n;
    }

    /** The content position of the next read, in uncompressed bytes. */
    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    /** Moves to content offset {@code newPosition}; past the end, reads return -1 (end of file). */
    @Override
    public AdaptiveSeekableChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("position must be 0 or more, was " + newPosition);
        }
        position = newPosition;
        return this;
    }

    /** The file's content length, in uncompressed bytes: the first call walks every block header. */
    @Override
    public long size() throws IOException {
        ensureOpen();
        return index.size();
    }

    /** Always refused: the channel is read-only. */
    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    /** Always refused: the channel is read-only. */
    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        decoder.close();
        file.close();
    }

    private boolean inBlock(long at) {
        return blockStart >= 0 && at >= blockStart && at < blockStart + blockLength;
    }

    /** As {@link #decodeBlockHolding}; after a failure the next read starts afresh from a start. */
    private boolean decodeBlockHoldingAfterFailure(long at) throws IOException {
        try {
            return decodeBlockHolding(at);
        } catch (IOException | RuntimeException e) {
            fileOffset = -1;
            blockStart = -1;
            throw e;
        }
    }

    /**
     * Decodes blocks until one holds content offset {@code at}: on from the last block if
     * {@code at} lies ahead and no start lies between, else from the last start at or before it.
     * False if the file ends before {@code at}.
     */
    private boolean decodeBlockHolding(long at) throws IOException {
        SeekIndex.Start start = index.startFor(at);
        if (start == null) {
            return false;
        }
        long next = blockStart + blockLength;
        boolean onward = fileOffset >= 0 && blockStart >= 0 && at >= next && start.contentOffset <= next;
        if (!onward) {
            enter(start);
        }
        while (!inBlock(at)) {
            if (!decodeNextBlock()) {
                return false;
            }
        }
        return true;
    }

    /** Positions the decoder at {@code start}'s block, entering its stream as a whole read or as a join. */
    private void enter(SeekIndex.Start start) throws FrameFormatException {
        parser.reset();
        if (start.streamStart) {
            parser.streamHeader(start.streamHeader, 0);
        } else {
            parser.joinStream(start.streamHeader, 0);
        }
        fileOffset = start.fileOffset;
        blockStart = start.contentOffset;
        blockLength = 0;
    }

    /** Decodes the next block after the current one, crossing into a following stream; false at the file's end. */
    private boolean decodeNextBlock() throws IOException {
        long next = blockStart + blockLength;
        while (true) {
            if (!parser.inStream()) {
                int n = index.readAt(fileOffset, ByteBuffer.wrap(headerBytes, 0, FrameFormat.STREAM_HEADER_LENGTH));
                if (n == 0) {
                    return false;
                }
                if (n < FrameFormat.STREAM_HEADER_LENGTH) {
                    throw new TruncatedStreamException("file ends at offset " + (fileOffset + n) + " inside a stream header");
                }
                parser.streamHeader(headerBytes, 0);
                fileOffset += FrameFormat.STREAM_HEADER_LENGTH;
                continue;
            }
            int length = parser.blockHeaderLength();
            if (index.readAt(fileOffset, ByteBuffer.wrap(headerBytes, 0, length)) < length) {
                throw new TruncatedStreamException("file ends at offset " + fileOffset + " without its end-of-stream marker");
            }
            BlockHeader header = parser.blockHeader(headerBytes, 0, fileOffset);
            long at = fileOffset;
            fileOffset += length;
            if (header.isEndOfStream()) {
                continue;
            }
            decode(header, at);
            fileOffset += header.storedLength();
            blockStart = next;
            blockLength = header.uncompressedLength();
            return true;
        }
    }

    private void decode(BlockHeader header, long at) throws IOException {
        int storedLength = header.storedLength();
        if (fileOffset + storedLength > file.size()) {
            throw new TruncatedStreamException("file ends at offset " + file.size() + " inside the payload of the"
                    + " block at offset " + at);
        }
        if (stored.length < storedLength) {
            stored = new byte[storedLength]; // the file holds it all: checked above
        }
        if (index.readAt(fileOffset, ByteBuffer.wrap(stored, 0, storedLength)) < storedLength) {
            throw new TruncatedStreamException("file ends at offset " + file.size() + " inside the payload of the"
                    + " block at offset " + at);
        }
        int length = header.uncompressedLength();
        if (block.length < length) {
            block = new byte[Math.min(maxBlockLength, Math.max(length, 2 * block.length))];
        }
        if (header.codec() == CodecType.RAW) {
            System.arraycopy(stored, 0, block, 0, length);
            decoder.verify(header, block, 0, at);
        } else {
            decoder.decode(header, stored, 0, block, 0, at);
        }
    }

    private void ensureOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
