package org.adaptivecompress.stream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;

/**
 * Where a reader of a file can start decoding: the blocks that decode without any block before
 * them (a stream's first block, a reset point, every block of a stream without histories), with
 * their place in the file and in the content. Built by walking the block headers from the
 * file's start, reading 28 bytes a block and skipping the payloads, as far as a seek needs; the
 * walk checks every header, the blocks' sequence and each stream's digest as a whole read does.
 */
final class SeekIndex {

    /** One place decoding can start. */
    static final class Start {
        /** Where the block's header is in the file. */
        final long fileOffset;
        /** The content offset of the block's first byte, over every stream in the file. */
        final long contentOffset;
        /** The stream header of the block's stream. */
        final byte[] streamHeader;
        /** Whether the block is its stream's first, which a reader enters through the stream header. */
        final boolean streamStart;

        Start(long fileOffset, long contentOffset, byte[] streamHeader, boolean streamStart) {
            this.fileOffset = fileOffset;
            this.contentOffset = contentOffset;
            this.streamHeader = streamHeader;
            this.streamStart = streamStart;
        }
    }

    private final SeekableByteChannel file;
    private final FrameParser parser;
    private final List<Start> starts = new ArrayList<>();
    private final ByteBuffer header = ByteBuffer.allocate(FrameFormat.BLOCK_HEADER_LENGTH);
    private byte[] streamHeader;
    private boolean firstOfStream;
    /** Where the walk's next header is in the file, and the content before it. */
    private long fileOffset;
    private long content;
    private boolean complete;

    SeekIndex(SeekableByteChannel file, int maxBlockLength, int maxWindowLog) {
        this.file = file;
        this.parser = FrameParser.headersOnly(maxBlockLength).maxWindowLog(maxWindowLog);
    }

    /** The last start at or before content offset {@code position}, walking as far as that needs; null past the end. */
    Start startFor(long position) throws IOException {
        while (!complete && content <= position) {
            step();
        }
        if (complete && position >= content) {
            return null;
        }
        int i = lastAtOrBefore(position);
        return i < 0 ? null : starts.get(i);
    }

    /** The content length of the whole file, walking all of it. */
    long size() throws IOException {
        while (!complete) {
            step();
        }
        return content;
    }

    private int lastAtOrBefore(long position) {
        int lo = 0;
        int hi = starts.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts.get(mid).contentOffset <= position) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Reads one header (a stream's, a block's or an end marker) and moves past it and its payload. */
    private void step() throws IOException {
        if (!parser.inStream()) {
            byte[] h = new byte[FrameFormat.STREAM_HEADER_LENGTH];
            int n = readAt(fileOffset, ByteBuffer.wrap(h));
            if (n == 0 && fileOffset > 0) {
                complete = true;
                return;
            }
            if (n < h.length) {
                throw new TruncatedStreamException(fileOffset == 0 ? "input is empty: no stream header"
                        : "file ends at offset " + (fileOffset + n) + " inside a stream header");
            }
            parser.streamHeader(h, 0);
            streamHeader = h;
            firstOfStream = true;
            fileOffset += h.length;
            return;
        }
        int length = parser.blockHeaderLength();
        header.clear().limit(length);
        if (readAt(fileOffset, header) < length) {
            throw new TruncatedStreamException("file ends at offset " + fileOffset + " without its end-of-stream marker");
        }
        BlockHeader h = parser.blockHeader(header.array(), 0, fileOffset);
        if (h.isEndOfStream()) {
            fileOffset += length;
            return;
        }
        if (firstOfStream || !parser.history() || h.isResetPoint()) {
            starts.add(new Start(fileOffset, content, streamHeader, firstOfStream));
        }
        firstOfStream = false;
        content += h.uncompressedLength();
        fileOffset += length + h.storedLength();
        if (fileOffset > file.size()) {
            throw new TruncatedStreamException("file ends at offset " + file.size() + " inside the payload of the"
                    + " block at offset " + (fileOffset - h.storedLength() - length));
        }
    }

    /** Reads up to {@code dst.remaining()} bytes at {@code at}; fewer only at the end of the file. */
    int readAt(long at, ByteBuffer dst) throws IOException {
        file.position(at);
        int total = 0;
        while (dst.hasRemaining()) {
            int n = file.read(dst);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

}
