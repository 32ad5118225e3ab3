package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.format.UnsupportedVersionException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.internal.format.PayloadBuffer;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec.READ_MODE;

/**
 * Decodes the codec's files, whole or one split at a time.
 *
 * <p>A <em>unit</em> is where a reader can start: a block, or for the first block of a stream,
 * the stream header and that block (it starts at the stream header). In a stream with
 * histories, whose blocks may depend on the blocks before them, a unit runs from a reset point
 * (a block after which nothing depends on earlier blocks) to the next, or from the stream header
 * to the first. A unit belongs to the split in which it starts. In
 * {@link READ_MODE#BYBLOCK} mode with {@code start > 0} the reader reads the first stream's salt
 * at offset 0, then scans forward from {@code start} byte by byte for a block header whose check
 * (CRC32C keyed by the salt) holds, or for a stream header ({@code AdOC}) that directly
 * follows an end marker valid under that salt (concatenated files). A stream header is never
 * taken on its own evidence: the file's content may hold another adaptive stream stored verbatim
 * (an {@code .adc} file inside a tar), whose headers check under their own salt. A false match
 * needs a 32-bit check to pass by chance, and is then also checked for codec, flags and
 * lengths. In a stream with histories, the reader then walks the block headers from that block
 * (seeking over payloads) to the first reset point or the stream's end marker. If the scan
 * passes more than a whole block, or reaches the end of the input more than a header's length after
 * {@code start}, without a match, {@code start} lies inside a later concatenated stream whose
 * salt the scan does not know: the reader then walks the file's headers from offset 0 instead
 * (seeking over payloads), which only concatenated files pay for.
 *
 * <p>The contract {@code CompressedSplitLineReader} relies on (as BZip2Codec's):
 * {@link #getAdjustedStart()} is the start of the first unit at or after {@code start} (0 for
 * the first split, the file length if no unit starts there); in BYBLOCK mode {@link #getPos()}
 * is the start of the unit that supplied the last byte returned, plus one (before any byte,
 * the adjusted start plus one), and one read never returns bytes of two units. So
 * {@code getPos() <= end} means "still in a unit that belongs to this split".
 */
final class AdaptiveSplitInputStream extends SplitCompressionInputStream {

    private final READ_MODE mode;
    private final int maxBlockLength;
    private final Decompressor toReturn;
    private final BlockDecoder decoder;
    private final FrameParser parser;
    private BlockHeader header;
    /** A stream header, then each block header in turn. */
    private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
    /** Scratch for the header walk, which needs no decoder. */
    private final BlockHeader walked = new BlockHeader();
    private final byte[] one = new byte[1];
    private byte[] stored = new byte[0];
    private byte[] block = new byte[0];
    private int blockPos;
    private int blockLimit;

    private long streamPos;
    private boolean sawStream;
    private long pendingUnitStart = -1;
    private long unitStart;
    private long reportedPos;
    private boolean eof;
    private IOException failure;
    private boolean closed;

    /**
     * @param in positioned at {@code start}; must be {@link Seekable} for BYBLOCK with start &gt; 0
     * @param decompressor supplies the (pooled) block decoder
     * @param returnToPool whether to return {@code decompressor} to {@link CodecPool} on close
     * @param settings the codec's ceiling on declared block lengths and its limits (a pooled
     *     decompressor may have been made by a codec with other settings)
     */
    AdaptiveSplitInputStream(InputStream in, AdaptiveFrameDecompressor decompressor, boolean returnToPool,
            AdaptiveCodecSettings settings, long start, long end, READ_MODE mode) throws IOException {
        super(in, start, end);
        this.mode = mode;
        this.maxBlockLength = settings.maxBlockLength();
        this.decoder = decompressor.blockDecoder();
        this.parser = settings.newParser(decoder);
        this.toReturn = returnToPool ? decompressor : null;
        this.streamPos = start;
        this.unitStart = start;
        if (mode == READ_MODE.BYBLOCK && start > 0) {
            if (!(in instanceof Seekable)) {
                throw new IOException("BYBLOCK reads from offset " + start + " need a Seekable stream, got "
                        + in.getClass().getName());
            }
            syncToUnit(start);
        }
        reportedPos = getAdjustedStart() + 1;
    }

    @Override
    public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("stream is closed");
        }
        if (len == 0) {
            return 0;
        }
        if (blockPos == blockLimit && !nextBlock()) {
            return -1;
        }
        int n = Math.min(len, blockLimit - blockPos); // never crosses a unit boundary
        System.arraycopy(block, blockPos, b, off, n);
        blockPos += n;
        reportedPos = unitStart + 1;
        return n;
    }

    @Override
    public long getPos() {
        return mode == READ_MODE.BYBLOCK ? reportedPos : streamPos;
    }

    /** Forgets any partly read block: SequenceFile calls this before each record's new stream. */
    @Override
    public void resetState() {
        blockPos = 0;
        blockLimit = 0;
        parser.reset();
        sawStream = false;
        eof = false;
        failure = null;
        pendingUnitStart = -1;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            super.close();
        } finally {
            if (toReturn != null) {
                CodecPool.returnDecompressor(toReturn);
            }
        }
    }

    private boolean nextBlock() throws IOException {
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
        while (!eof) {
            if (!parser.inStream()) {
                long at = streamPos;
                if (!readFully(headerBytes, FrameFormat.STREAM_HEADER_LENGTH, "stream header")) {
                    if (!sawStream) {
                        throw new TruncatedStreamException("input is empty at offset " + at + ": no stream header");
                    }
                    eof = true;
                    return false;
                }
                // Read from its header on, a stream with histories decodes like any other.
                parser.streamHeader(headerBytes, 0);
                sawStream = true;
                pendingUnitStart = at;
                continue;
            }
            long headerAt = streamPos;
            if (!readFully(headerBytes, parser.blockHeaderLength(), "block header")) {
                throw new TruncatedStreamException("stream ends at offset " + headerAt
                        + " without its end-of-stream marker");
            }
            header = parser.blockHeader(headerBytes, 0, headerAt);
            if (header.isEndOfStream()) {
                pendingUnitStart = -1;
                continue;
            }
            stored = PayloadBuffer.read(in, stored, header.storedLength(), streamPos);
            streamPos += header.storedLength();
            if (block.length < header.uncompressedLength()) {
                block = new byte[header.uncompressedLength()];
            }
            decoder.decode(header, stored, 0, block, 0, headerAt);
            if (pendingUnitStart >= 0) {
                unitStart = pendingUnitStart;
            } else if (!parser.history() || header.isResetPoint()) {
                unitStart = headerAt;
            } // else the block belongs to the unit of the reset point before it
            pendingUnitStart = -1;
            blockPos = 0;
            blockLimit = header.uncompressedLength();
            return true;
        }
        return false;
    }

    /**
     * Reads exactly {@code length} bytes into {@code dst}; false if the input ends before the
     * first of them, a {@link TruncatedStreamException} if it ends after some.
     */
    private boolean readFully(byte[] dst, int length, String what) throws IOException {
        int done = 0;
        while (done < length) {
            int n = in.read(dst, done, length - done);
            if (n < 0) {
                if (done == 0) {
                    return false;
                }
                throw new TruncatedStreamException("stream ends at offset " + streamPos + " inside a " + what
                        + " (" + done + " of " + length + " bytes present)");
            }
            done += n;
            streamPos += n;
        }
        return true;
    }

    /** Positions the reader at the first unit starting at or after {@code start} and sets the adjusted start. */
    private void syncToUnit(long start) throws IOException {
        Seekable seekable = (Seekable) in;
        seekable.seek(0);
        byte[] streamHeader = new byte[FrameFormat.STREAM_HEADER_LENGTH];
        streamPos = 0;
        if (!readFully(streamHeader, streamHeader.length, "stream header")) {
            throw new TruncatedStreamException("input is empty: no stream header");
        }
        checkSplittable(streamHeader, 0);
        // The scan reads from an end marker's length before start, to check one that ends there.
        long scanFrom = Math.max(0, start - FrameFormat.BLOCK_HEADER_LENGTH);
        seekable.seek(scanFrom);
        streamPos = scanFrom;
        UnitScanner scanner = new UnitScanner(in, scanFrom, start, streamHeader, maxBlockLength);
        long found = scanner.scan();
        long endOfInput;
        if (found == UnitScanner.GAVE_UP) {
            found = walkFromStart(start);
            endOfInput = streamPos;
        } else {
            endOfInput = start + scanner.scannedBytes();
            if (found >= 0 && !scanner.foundStreamHeader() && !scanner.foundResetPoint()) {
                found = walkToResetPoint(found, streamHeader);
            }
            if (!scanner.foundStreamHeader()) {
                parser.joinStream(streamHeader, 0);
            }
        }
        sawStream = true;
        if (found < 0) {
            long length = endOfInput;
            setStart(length);
            streamPos = length;
            unitStart = length;
            eof = true;
            return;
        }
        seekable.seek(found);
        streamPos = found;
        setStart(found);
        unitStart = found;
    }

    /**
     * Walks the block headers of the stream whose header is {@code streamHeader} from its block
     * at {@code from}, seeking over payloads, to its first reset point or its end marker (after
     * which a reader finds the next stream header, if any), and returns that header's offset.
     */
    private long walkToResetPoint(long from, byte[] streamHeader) throws IOException {
        ((Seekable) in).seek(from);
        streamPos = from;
        return walkToUnit(streamHeader, from, false);
    }

    /**
     * Walks stream and block headers from offset 0, seeking over payloads, to the first unit
     * at or after {@code start}; -1 if there is none. Joins the stream of a block found.
     */
    private long walkFromStart(long start) throws IOException {
        ((Seekable) in).seek(0);
        streamPos = 0;
        byte[] streamHeader = new byte[FrameFormat.STREAM_HEADER_LENGTH];
        while (true) {
            long unit = streamPos;
            if (!readFully(streamHeader, streamHeader.length, "stream header")) {
                return -1;
            }
            if (unit >= start) {
                parser.reset();
                return unit;
            }
            checkSplittable(streamHeader, 0);
            // The stream's first block belongs to the unit that starts at its stream header.
            long block = walkToUnit(streamHeader, start, true);
            if (block >= 0) {
                parser.joinStream(streamHeader, 0);
                return block;
            }
        }
    }

    /**
     * Walks the block headers of the stream whose header is {@code streamHeader} from
     * {@code streamPos}, seeking over payloads, to the first at or after {@code start} that
     * starts a unit (any block of a stream without histories; a reset point or the end marker
     * in one with them), and returns its offset; -1, with {@code streamPos} after the end
     * marker, if the stream ends before one.
     *
     * @param skipFirst whether the first block walked starts no unit of its own
     */
    private long walkToUnit(byte[] streamHeader, long start, boolean skipFirst) throws IOException {
        int salt = FrameFormat.readStreamHeader(streamHeader, 0);
        int version = FrameFormat.version(streamHeader, 0);
        boolean history = FrameFormat.usesHistory(streamHeader, 0);
        int headerLength = FrameFormat.blockHeaderLength(version);
        boolean first = skipFirst;
        while (true) {
            long headerAt = streamPos;
            if (!readFully(headerBytes, headerLength, "block header")) {
                throw new TruncatedStreamException("stream ends at offset " + headerAt
                        + " without its end-of-stream marker");
            }
            walked.parse(headerBytes, 0, version, salt, history, maxBlockLength, headerAt);
            boolean startsUnit = !history || walked.isResetPoint() || walked.isEndOfStream();
            if (headerAt >= start && !first && startsUnit) {
                return headerAt;
            }
            first = false;
            if (walked.isEndOfStream()) {
                return -1;
            }
            streamPos += walked.storedLength();
            ((Seekable) in).seek(streamPos);
        }
    }

    /**
     * Scans forward for a block header valid under the known salt, or a stream header that
     * follows an end marker valid under it and is itself followed by a block header valid under
     * its own salt. Reads through a window so each candidate position costs one CRC32C of a
     * bytes, and never throws for a false candidate.
     */
    static final class UnitScanner {
        static final long GAVE_UP = -2;
        private static final int LOOKAHEAD = FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH;

        private final InputStream in;
        private final long start;
        private final int maxBlockLength;
        private final long giveUpAfter;
        private final CRC32C crc = new CRC32C();
        private final BlockHeader probe = new BlockHeader();
        private byte[] window = new byte[64 * 1024];
        private long windowBase;
        private int windowLength;
        private boolean inputEnded;
        /** The salt, version and histories of the stream the scan knows: the file's first. */
        private final int salt;
        private final int version;
        private final boolean history;
        private boolean foundStreamHeader;
        private boolean foundResetPoint;

        /**
         * @param in positioned at {@code from}
         * @param from where reading starts: up to an end marker's length before {@code start}
         * @param start the first offset a unit may start at
         * @param streamHeader {@code [0, 12)}: the header of the stream the scan looks for blocks of
         */
        UnitScanner(InputStream in, long from, long start, byte[] streamHeader, int maxBlockLength)
                throws FrameFormatException {
            this.in = in;
            this.start = start;
            this.salt = FrameFormat.readStreamHeader(streamHeader, 0);
            this.version = FrameFormat.version(streamHeader, 0);
            this.history = FrameFormat.usesHistory(streamHeader, 0);
            this.maxBlockLength = maxBlockLength;
            this.windowBase = from;
            // A unit starts within every (largest block + its header + a stream header) bytes.
            this.giveUpAfter = (long) maxBlockLength + 2L * LOOKAHEAD;
        }

        /** Whether the unit found starts with a stream header (else it is a block of the known stream). */
        boolean foundStreamHeader() {
            return foundStreamHeader;
        }

        /**
         * Whether the block found starts a unit: any block of a stream without histories; in one
         * with them, a reset point or the end marker. From any other block the caller walks on
         * to the next reset point.
         */
        boolean foundResetPoint() {
            return foundResetPoint;
        }

        long scannedBytes() {
            return windowBase + windowLength - start;
        }

        /** The offset of the first unit at or after start; -1 at end of input; {@link #GAVE_UP}. */
        long scan() throws IOException {
            for (long p = start;; p++) {
                if (p - start > giveUpAfter) {
                    return GAVE_UP;
                }
                int have = ensure(p, LOOKAHEAD);
                int headerLength = FrameFormat.blockHeaderLength(version);
                if (have < headerLength) {
                    // A stream known to the scan ends with an end marker it would have matched,
                    // so a header's length or more without one means a later stream with another salt.
                    return p - start >= headerLength ? GAVE_UP : -1;
                }
                int i = (int) (p - windowBase);
                // Stream 0's first block is part of the unit at offset 0, which is never ours.
                if (p != FrameFormat.STREAM_HEADER_LENGTH && validBlockHeader(i, version, salt, history, p)) {
                    foundResetPoint = !history || probe.isResetPoint() || probe.isEndOfStream();
                    return p;
                }
                if (have == LOOKAHEAD && FrameFormat.getInt(window, i) == FrameFormat.MAGIC
                        && endMarkerBefore(i, p)) {
                    try {
                        int nextSalt = FrameFormat.readStreamHeader(window, i);
                        checkSplittable(window, i);
                        if (validBlockHeader(i + FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.version(window, i),
                                nextSalt, FrameFormat.usesHistory(window, i), p)) {
                            foundStreamHeader = true;
                            return p;
                        }
                    } catch (FrameFormatException notAStreamHeader) {
                        // magic bytes inside a payload: keep scanning
                    }
                }
            }
        }

        /** Whether the bytes before window index {@code i} are an end marker of the known stream. */
        private boolean endMarkerBefore(int i, long position) {
            int length = FrameFormat.blockHeaderLength(version);
            int at = i - length;
            return at >= 0 && validBlockHeader(at, version, salt, history, position - length) && probe.isEndOfStream();
        }

        private boolean validBlockHeader(int i, int withVersion, int withSalt, boolean withHistory, long position) {
            int checked = FrameFormat.blockHeaderLength(withVersion) - 4;
            if (FrameFormat.headerCheck(window, i, checked, withSalt, crc) != FrameFormat.getInt(window, i + checked)) {
                return false;
            }
            try {
                probe.parse(window, i, withVersion, withSalt, withHistory, maxBlockLength, position);
                return true;
            } catch (FrameFormatException falseMatch) {
                return false;
            }
        }

        /**
         * Makes window hold bytes from p on, and the end marker's length before p; returns how
         * many of the {@code want} are there.
         */
        private int ensure(long p, int want) throws IOException {
            int offset = (int) (p - windowBase);
            if (offset + want > windowLength && !inputEnded) {
                int drop = offset - FrameFormat.BLOCK_HEADER_LENGTH;
                if (drop > 0) {
                    System.arraycopy(window, drop, window, 0, windowLength - drop);
                    windowLength -= drop;
                    windowBase += drop;
                    offset -= drop;
                }
                while (windowLength < offset + want && !inputEnded) {
                    int n = in.read(window, windowLength, window.length - windowLength);
                    if (n < 0) {
                        inputEnded = true;
                    } else {
                        windowLength += n;
                    }
                }
            }
            return Math.min(want, windowLength - offset);
        }
    }

    /**
     * Validates the stream header at {@code src[offset]}, refusing a stream with histories
     * written before format version 3: it has no reset points, so its blocks decode only in
     * order from its start and it cannot be split.
     */
    private static void checkSplittable(byte[] src, int offset) throws FrameFormatException {
        FrameFormat.readStreamHeader(src, offset);
        int version = FrameFormat.version(src, offset);
        if (FrameFormat.usesHistory(src, offset) && version < FrameFormat.VERSION) {
            throw new UnsupportedVersionException("stream was written with histories in format version " + version
                    + ", which has no reset points: its blocks decode only in order from its start, so it cannot"
                    + " be read as splits; read it whole, or write it again with this version");
        }
    }
}
