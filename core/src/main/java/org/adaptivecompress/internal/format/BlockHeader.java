package org.adaptivecompress.internal.format;

import java.util.zip.CRC32C;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.format.UnknownCodecException;

/**
 * A parsed block header. Mutable and reusable: a reader parses every header of a stream into
 * the same instance, so decoding allocates nothing per block.
 */
public final class BlockHeader {

    private final CRC32C scratch = new CRC32C();
    private boolean endOfStream;
    private CodecType codec;
    private int level;
    private int uncompressedLength;
    private int storedLength;
    private int contentCrc;
    private int historyId;
    private boolean continuesHistory;
    private boolean primed;
    private boolean primedShort;
    private boolean resetPoint;
    private long streamOffset;

    /**
     * Parses and validates the {@link FrameFormat#VERSION current version}'s header at
     * {@code src[offset]}: the header check, the codec id, the flags, and both lengths against
     * {@code maxBlockLength}, all before the caller reads or allocates anything for the payload.
     *
     * @param salt the stream's salt, from its stream header
     * @param position the header's offset in the stream, for error messages
     */
    public BlockHeader parse(byte[] src, int offset, int salt, int maxBlockLength, long position)
            throws FrameFormatException {
        return parse(src, offset, FrameFormat.VERSION, salt, false, maxBlockLength, position);
    }

    /**
     * Like {@link #parse(byte[], int, int, int, long)}, for a stream of the current version
     * whose header may allow histories ({@link FrameFormat#usesHistory}).
     */
    public BlockHeader parse(byte[] src, int offset, int salt, boolean history, int maxBlockLength, long position)
            throws FrameFormatException {
        return parse(src, offset, FrameFormat.VERSION, salt, history, maxBlockLength, position);
    }

    /**
     * Like {@link #parse(byte[], int, int, int, long)}, for a stream of {@code version} whose
     * header may allow histories ({@link FrameFormat#usesHistory}): then a zstd or xz block may
     * name a history and continue its stream or start it primed, and any other block must not;
     * from version 3 on, any block of such a stream may be a reset point.
     * Where the stream offset is (version 2 on) it must not be negative; checking it against
     * the blocks before is the caller's ({@link FrameParser}).
     *
     * @param version the stream header's version, one {@link FrameFormat#readStreamHeader} accepted
     * @param history whether the stream header sets {@link FrameFormat#STREAM_FLAG_HISTORY}
     */
    public BlockHeader parse(byte[] src, int offset, int version, int salt, boolean history, int maxBlockLength,
            long position) throws FrameFormatException {
        int checked = FrameFormat.blockHeaderLength(version) - 4;
        int expectedCheck = FrameFormat.getInt(src, offset + checked);
        if (FrameFormat.headerCheck(src, offset, checked, salt, scratch) != expectedCheck) {
            throw new CorruptFrameException("block header at stream offset " + position
                    + " fails its header check: the header is damaged or belongs to another stream");
        }
        streamOffset = version == FrameFormat.VERSION_1 ? -1 : FrameFormat.getLong(src, offset + 16);
        if (version != FrameFormat.VERSION_1 && streamOffset < 0) {
            throw new CorruptFrameException("block at stream offset " + position + " starts at content offset "
                    + streamOffset);
        }
        int codecId = src[offset] & 0xFF;
        int flags = src[offset + 1] & 0xFF;
        uncompressedLength = FrameFormat.getInt(src, offset + 4);
        storedLength = FrameFormat.getInt(src, offset + 8);
        contentCrc = FrameFormat.getInt(src, offset + 12);
        level = src[offset + 2];
        historyId = src[offset + 3] & 0xFF;
        continuesHistory = (flags & FrameFormat.BLOCK_FLAG_CONTINUES) != 0;
        primed = (flags & FrameFormat.BLOCK_FLAG_PRIMED) != 0;
        primedShort = (flags & FrameFormat.BLOCK_FLAG_PRIMED_SHORT) != 0;
        resetPoint = (flags & FrameFormat.BLOCK_FLAG_RESET) != 0;
        int known = FrameFormat.BLOCK_FLAG_CONTINUES | FrameFormat.BLOCK_FLAG_PRIMED
                | FrameFormat.BLOCK_FLAG_PRIMED_SHORT | (version >= FrameFormat.VERSION ? FrameFormat.BLOCK_FLAG_RESET : 0);
        int unknownFlags = flags & ~known;
        if (unknownFlags != 0) {
            throw new CorruptFrameException(String.format(
                    "block at stream offset %d sets flag bits 0x%02X, which format version %d does not define",
                    position, unknownFlags, version));
        }
        if (!history && (flags != 0 || historyId != 0)) {
            throw new CorruptFrameException(String.format(
                    "block at stream offset %d sets history flags 0x%02X and history id %d in a stream whose"
                            + " header allows no histories", position, flags, historyId));
        }
        int historyFlags = flags & ~FrameFormat.BLOCK_FLAG_RESET;
        if (historyId > FrameFormat.MAX_HISTORIES || historyFlags != 0 && historyId == 0) {
            throw new CorruptFrameException("block at stream offset " + position + " names history " + historyId
                    + (continuesHistory ? " and continues it" : "") + (primed || primedShort ? " and primes it" : "")
                    + "; histories are 1-" + FrameFormat.MAX_HISTORIES);
        }
        if (Integer.bitCount(flags) > 1) {
            throw new CorruptFrameException(String.format("block at stream offset %d sets history flags 0x%02X:"
                    + " it may continue its history, prime a new one or be a reset point, one of these", position,
                    flags));
        }
        endOfStream = codecId == FrameFormat.END_OF_STREAM;
        if (endOfStream) {
            codec = null;
            if (historyId != 0 || flags != 0) {
                throw new CorruptFrameException("end-of-stream marker at stream offset " + position
                        + " names a history or sets flags");
            }
            if (uncompressedLength != 0 || storedLength != 0) {
                throw new CorruptFrameException("end-of-stream marker at stream offset " + position
                        + " declares a payload (" + storedLength + " bytes)");
            }
            return this;
        }
        codec = CodecType.fromId(codecId);
        if (codec == null) {
            throw new UnknownCodecException("block at stream offset " + position + " uses unknown codec id "
                    + codecId + "; this reader knows ids 0-" + (CodecType.values().length - 1));
        }
        if (historyId != 0 && !codec.hasHistory()) {
            throw new CorruptFrameException("block at stream offset " + position + " names history " + historyId
                    + " but is a " + codec + " block; only zstd and xz blocks have histories");
        }
        checkLength("uncompressed", uncompressedLength, maxBlockLength, position);
        if (historyId == 0) {
            checkLength("stored", storedLength, maxBlockLength, position);
        } else if (storedLength < 0 || storedLength > FrameFormat.maxHistoryPayload(uncompressedLength)) {
            throw new CorruptFrameException("block at stream offset " + position + " in history " + historyId
                    + " stores " + (storedLength & 0xFFFFFFFFL) + " bytes for " + uncompressedLength
                    + ", more than the " + FrameFormat.maxHistoryPayload(uncompressedLength) + " a history block may");
        }
        if (uncompressedLength == 0 || storedLength == 0) {
            throw new CorruptFrameException("block at stream offset " + position + " is empty");
        }
        if (codec == CodecType.RAW && storedLength != uncompressedLength) {
            throw new CorruptFrameException("raw block at stream offset " + position + " stores " + storedLength
                    + " bytes but declares " + uncompressedLength);
        }
        return this;
    }

    private static void checkLength(String what, int length, int max, long position)
            throws OversizedBlockException {
        if (length < 0 || length > max) {
            throw new OversizedBlockException("block at stream offset " + position + " declares "
                    + (length & 0xFFFFFFFFL) + " " + what + " bytes, over this reader's maximum block length of "
                    + max + " bytes");
        }
    }

    /** True for the end-of-stream marker, which has no codec and no payload. */
    public boolean isEndOfStream() {
        return endOfStream;
    }

    /** The codec of the payload; {@code null} for the end-of-stream marker. */
    public CodecType codec() {
        return codec;
    }

    /** The encoder's level hint (informational, clamped to a signed byte). */
    public int level() {
        return level;
    }

    /** Bytes the block decodes to. */
    public int uncompressedLength() {
        return uncompressedLength;
    }

    /** Bytes of payload that follow the header. */
    public int storedLength() {
        return storedLength;
    }

    /** The history the block belongs to, 1 to {@link FrameFormat#MAX_HISTORIES}; 0 if it decodes alone. */
    public int historyId() {
        return historyId;
    }

    /** True if the block continues the frame its history's earlier blocks opened. */
    public boolean continuesHistory() {
        return continuesHistory;
    }

    /**
     * True if the block starts a new stream for its history primed with the stream's last
     * bytes ({@link FrameFormat#BLOCK_FLAG_PRIMED} or {@link FrameFormat#BLOCK_FLAG_PRIMED_SHORT}),
     * {@link #primeLength()} of them at most.
     */
    public boolean primesHistory() {
        return primed || primedShort;
    }

    /**
     * How many of the stream's last bytes a priming block starts from at most:
     * {@link FrameFormat#SHORT_PRIME_LENGTH} or {@link FrameFormat#PRIME_LENGTH}.
     */
    public int primeLength() {
        return primedShort ? FrameFormat.SHORT_PRIME_LENGTH : FrameFormat.PRIME_LENGTH;
    }

    /**
     * True if the block is a reset point ({@link FrameFormat#BLOCK_FLAG_RESET}): nothing from it
     * on depends on the blocks before it, so a reader may start here.
     */
    public boolean isResetPoint() {
        return resetPoint;
    }

    /** CRC32C of the uncompressed bytes; in the end marker, the stream's digest. */
    public int contentCrc() {
        return contentCrc;
    }

    /**
     * The stream's content bytes before this block; in the end marker, all of them. -1 in a
     * version 1 stream, whose headers do not carry it.
     */
    public long streamOffset() {
        return streamOffset;
    }
}
