package org.adaptivecompress.internal.format;

import java.util.Objects;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.DecompressionLimitException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.UnsupportedVersionException;

/**
 * The format's rules for a stream read in order, in one place: every reader of the library
 * (core's stream, the Netty decoder, the Hadoop decompressor and split reader, the CLI's
 * {@code inspect}) does its own I/O and hands each stream header and block header here.
 *
 * <p>It validates the stream header (magic, version, flags), parses each block header with the
 * stream's version, salt and histories against the reader's ceiling on block length, and checks
 * each block's place in the sequence: from version 2 on, a block's stream offset must equal the
 * content of the blocks before it, so a frame lost, repeated or moved is caught at the very next
 * block, and the end marker's offset must equal the whole content. At the end marker it checks
 * the digest over the blocks read ({@link StreamDigest}), which is all a version 1 stream has.
 * A reader that joins a stream in the middle (a Hadoop split) takes the first block's offset as
 * given and checks every block after it; it has not seen the stream's first blocks, so it skips
 * the digest.
 *
 * <p>Not thread-safe: one per reader.
 */
public final class FrameParser {

    /** No limit on a stream's content, or on a block's expansion. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /** Null for a parser that only walks headers ({@link #headersOnly}). */
    private final BlockDecoder decoder;
    private int maxBlockLength;
    /** What the reader accepts beyond its limits, or null for any codec, level and history. */
    private ReceiverBudget budget;
    /** Histories the current stream may open within the budget's memory, and the ids it has opened. */
    private int historyLimit = FrameFormat.MAX_HISTORIES;
    private int historiesOpened;
    private long maxStreamBytes = UNLIMITED;
    private long maxExpansionRatio = UNLIMITED;
    private int maxWindowLog = FrameFormat.DEFAULT_MAX_WINDOW_LOG;
    /** Content bytes of the current stream's blocks so far. */
    private long streamContent;
    private final BlockHeader header = new BlockHeader();
    private final StreamDigest digest = new StreamDigest();
    private boolean inStream;
    private int version;
    private int salt;
    private boolean history;
    /** Whether the stream was joined at a block and no block has been read yet. */
    private boolean joining;
    /** Whether every block since the stream header passed here, so that the digest can be checked. */
    private boolean wholeStream;
    /** The stream offset the next block must start at; -1 where unknown (version 1, or a split's first block). */
    private long expectedOffset;

    /**
     * @param decoder told of every new stream ({@link BlockDecoder#newStream}), so that its
     *     histories start afresh where the stream does
     * @param maxBlockLength the reader's ceiling on a block's declared lengths
     */
    public FrameParser(BlockDecoder decoder, int maxBlockLength) {
        this.decoder = Objects.requireNonNull(decoder, "decoder is null");
        this.maxBlockLength = FrameFormat.checkMaxBlockLength(maxBlockLength);
    }

    /**
     * A parser that only walks the headers, decoding nothing: for an index of where a reader
     * can start. It keeps no decoder state, so it costs no history's memory.
     */
    public static FrameParser headersOnly(int maxBlockLength) {
        return new FrameParser(maxBlockLength);
    }

    private FrameParser(int maxBlockLength) {
        this.decoder = null;
        this.maxBlockLength = FrameFormat.checkMaxBlockLength(maxBlockLength);
    }

    /**
     * Also refuses, before it is decoded, a block that takes its stream's content past
     * {@code maxStreamBytes}, or that declares more than {@code maxExpansionRatio} times its
     * payload's length, with a {@link DecompressionLimitException}: the caps a reader of
     * untrusted input sets, as Netty's decoders have. {@link #UNLIMITED} (the default) for none.
     *
     * @return this parser
     */
    public FrameParser limit(long maxStreamBytes, long maxExpansionRatio) {
        if (maxStreamBytes < 0 || maxExpansionRatio < 1) {
            throw new IllegalArgumentException("limits must be positive: " + maxStreamBytes + " stream bytes, ratio "
                    + maxExpansionRatio);
        }
        this.maxStreamBytes = maxStreamBytes;
        this.maxExpansionRatio = maxExpansionRatio;
        return this;
    }

    /**
     * Also refuses a stream whose histories declare a window over {@code 1 << maxWindowLog}
     * bytes, with a {@link DecompressionLimitException}, before anything is allocated for it:
     * a reader holds up to a window per history. {@link FrameFormat#DEFAULT_MAX_WINDOW_LOG} by
     * default.
     *
     * @param maxWindowLog {@link FrameFormat#MIN_WINDOW_LOG} to {@link FrameFormat#MAX_WINDOW_LOG}
     * @return this parser
     */
    public FrameParser maxWindowLog(int maxWindowLog) {
        this.maxWindowLog = FrameFormat.checkWindowLog(maxWindowLog);
        return this;
    }

    /**
     * Also refuses what {@code budget} does not accept, with a {@link DecompressionLimitException}
     * before anything is decoded: a block of a codec or at a level outside it, a block longer
     * than its block limit, a stream whose window is over its window limit or that has histories
     * where it takes none, and a block that opens more histories than its memory limit holds.
     * What a reader advertised, it enforces here.
     *
     * @return this parser
     */
    public FrameParser accept(ReceiverBudget budget) {
        this.budget = Objects.requireNonNull(budget, "budget is null");
        this.maxBlockLength = Math.min(maxBlockLength, budget.maxBlockLength());
        if (budget.maxWindow() != ReceiverBudget.NO_HISTORY) {
            maxWindowLog = Math.min(maxWindowLog, Integer.numberOfTrailingZeros(budget.maxWindow()));
        }
        return this;
    }

    /**
     * Starts the stream whose {@value FrameFormat#STREAM_HEADER_LENGTH}-byte header is at
     * {@code src[offset]}.
     *
     * @throws BadMagicException if it is not a stream header
     * @throws UnsupportedVersionException for a version, flag or reserved byte this reader does not know
     * @throws DecompressionLimitException for a history window over the reader's limit
     */
    public void streamHeader(byte[] src, int offset) throws FrameFormatException {
        begin(src, offset, true);
    }

    /**
     * Joins, at one of its blocks, the stream whose header is at {@code src[offset]} (read
     * earlier, or found by a scan): the blocks before are unknown, so neither the next block's
     * offset nor the digest can be checked. In a stream with histories the next block must be
     * a reset point ({@link BlockHeader#isResetPoint()}).
     */
    public void joinStream(byte[] src, int offset) throws FrameFormatException {
        begin(src, offset, false);
    }

    private void begin(byte[] src, int offset, boolean whole) throws FrameFormatException {
        int streamSalt = FrameFormat.readStreamHeader(src, offset);
        int windowLog = FrameFormat.windowLog(src, offset);
        if (windowLog > maxWindowLog) {
            throw new DecompressionLimitException("stream's histories use a window of " + (1L << windowLog)
                    + " bytes, over this reader's limit of " + (1L << maxWindowLog) + " bytes (maxWindow)");
        }
        if (windowLog != 0 && budget != null && budget.maxWindow() == ReceiverBudget.NO_HISTORY) {
            throw new DecompressionLimitException("stream uses histories, which this reader's budget (" + budget
                    + ") does not accept");
        }
        historyLimit = windowLog == 0 || budget == null ? FrameFormat.MAX_HISTORIES
                : budget.historiesWithin(1 << windowLog);
        if (historyLimit == 0) {
            throw new DecompressionLimitException("stream's histories use a window of " + (1L << windowLog)
                    + " bytes, and not one fits this reader's memory budget (" + budget + ")");
        }
        historiesOpened = 0;
        version = FrameFormat.version(src, offset);
        salt = streamSalt;
        history = windowLog != 0;
        wholeStream = whole;
        joining = !whole;
        expectedOffset = whole && version != FrameFormat.VERSION_1 ? 0 : -1;
        streamContent = 0;
        digest.reset();
        if (decoder != null) {
            decoder.newStream(windowLog);
        }
        inStream = true;
    }

    /** Whether a stream has begun and its end marker not yet been read. */
    public boolean inStream() {
        return inStream;
    }

    /** Forgets the stream: the next thing read is a stream header. */
    public void reset() {
        inStream = false;
    }

    /** The length of the current stream's block headers: 28 bytes, 20 in a version 1 stream. */
    public int blockHeaderLength() {
        return FrameFormat.blockHeaderLength(version);
    }

    /** The current stream's salt. */
    public int salt() {
        return salt;
    }

    /** The current stream's version. */
    public int version() {
        return version;
    }

    /** Whether the current stream allows histories. */
    public boolean history() {
        return history;
    }

    /**
     * Parses and checks the block header at {@code src[offset]}, {@link #blockHeaderLength()}
     * bytes, found at {@code position} in the input. An end marker ends the stream, once its
     * length and digest match the blocks read.
     *
     * @return the header, valid until the next call
     * @throws BlockSequenceException if the block is not where the blocks before it end, or
     *     the end marker does not match them
     * @throws FrameFormatException for a header that fails its check or its limits
     */
    public BlockHeader blockHeader(byte[] src, int offset, long position) throws FrameFormatException {
        if (!inStream) {
            throw new IllegalStateException("a block header outside a stream: read the stream header first");
        }
        header.parse(src, offset, version, salt, history, maxBlockLength, position);
        if (joining && history && !header.isEndOfStream() && !header.isResetPoint()) {
            throw new CorruptFrameException("block at stream offset " + position + " is not a reset point: a reader"
                    + " joining a stream with histories must start at one, since later blocks may depend on earlier");
        }
        joining = false;
        if (header.isResetPoint()) {
            if (decoder != null) {
                decoder.resetPoint();
            }
        }
        long at = header.streamOffset();
        if (expectedOffset >= 0 && at != expectedOffset) {
            throw new BlockSequenceException(header.isEndOfStream()
                    ? String.format("end-of-stream marker at stream offset %d says its stream holds %d bytes, but"
                            + " the blocks read hold %d: a whole frame is missing, repeated or out of order", position, at,
                            expectedOffset)
                    : String.format("block at stream offset %d starts at content byte %d, but the blocks before it"
                            + " end at %d: a whole frame is missing, repeated or out of order", position, at,
                            expectedOffset));
        }
        if (header.isEndOfStream()) {
            if (wholeStream) {
                digest.verify(header, position);
            }
            inStream = false;
        } else {
            checkBudget(position);
            checkLimits(position);
            digest.add(header);
            expectedOffset = at < 0 ? -1 : at + header.uncompressedLength();
            streamContent += header.uncompressedLength();
        }
        return header;
    }

    private void checkBudget(long position) throws DecompressionLimitException {
        if (budget == null) {
            return;
        }
        if (!budget.accepts(header.codec(), header.level())) {
            throw new DecompressionLimitException("block at stream offset " + position + " is stored with "
                    + header.codec().specName() + " at level " + header.level() + ", which this reader's budget ("
                    + budget + ") does not accept");
        }
        historiesOpened |= header.historyId() == 0 ? 0 : 1 << header.historyId();
        if (Integer.bitCount(historiesOpened) > historyLimit) {
            throw new DecompressionLimitException("block at stream offset " + position + " opens history "
                    + header.historyId() + ", one more than the " + historyLimit + " histories this"
                    + " reader's memory budget (" + budget + ") holds");
        }
    }

    private void checkLimits(long position) throws DecompressionLimitException {
        int length = header.uncompressedLength();
        // length > ratio * stored, without the product's overflow (both lengths are at least 1)
        if ((length - 1) / header.storedLength() >= maxExpansionRatio) {
            throw new DecompressionLimitException("block at stream offset " + position + " declares " + length
                    + " bytes from a " + header.storedLength() + "-byte payload, more than this reader's limit of "
                    + maxExpansionRatio + " times");
        }
        if (length > maxStreamBytes - streamContent) {
            throw new DecompressionLimitException("block at stream offset " + position + " takes the stream past"
                    + " this reader's limit of " + maxStreamBytes + " bytes (" + streamContent + " so far)");
        }
    }
}
