package org.adaptivecompress.internal.format;

import java.util.zip.CRC32C;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.UnsupportedVersionException;

/**
 * Constants and byte-level helpers of the frame format, specified in {@code docs/FORMAT.md}.
 *
 * <p>A stream is a {@linkplain #STREAM_HEADER_LENGTH 12-byte header} (magic, version, flags,
 * salt) followed by blocks, each a {@linkplain #BLOCK_HEADER_LENGTH 28-byte header} (20 bytes in
 * version 1, which has no stream offset) and its payload, and ends with an end-of-stream block.
 * All integers are big-endian. A block decodes alone unless the stream allows histories and its
 * header names one.
 */
public final class FrameFormat {

    /** {@code "AdOC"}: the first four bytes of every stream. */
    public static final int MAGIC = 0x41644F43;
    /** The format version this library writes; it reads this one, {@link #VERSION_2} and {@link #VERSION_1}. */
    public static final int VERSION = 3;
    /** The second version: no reset points, and every history's window is 2 MiB. */
    public static final int VERSION_2 = 2;
    /** The first version: block headers without the stream offset, so a lost frame shows only at the end marker. */
    public static final int VERSION_1 = 1;
    /** Magic (4), version (1), flags (1), window log (1, from version 3), reserved (1), salt (4). */
    public static final int STREAM_HEADER_LENGTH = 12;
    /**
     * Codec (1), flags (1), level (1), history id (1), uncompressed length (4), stored length
     * (4), CRC32C (4), stream offset (8), header check (4): the block header this library writes.
     */
    public static final int BLOCK_HEADER_LENGTH = 28;
    /** A version 1 block header: the same without the stream offset. */
    public static final int BLOCK_HEADER_LENGTH_V1 = 20;
    /** The codec byte of the end-of-stream block. */
    public static final int END_OF_STREAM = 0xFF;
    /**
     * The largest block the format allows, 64 MiB: a writer never makes a larger one, and no
     * reader can be configured to accept one.
     */
    public static final int MAX_BLOCK_LENGTH_LIMIT = 64 << 20;
    /**
     * A reader's default ceiling on a block's uncompressed and stored length, 4 MiB: well above
     * the default block size (128 KiB) and low enough that a hostile header cannot make a reader
     * allocate much.
     */
    public static final int DEFAULT_MAX_BLOCK_LENGTH = 4 << 20;
    /**
     * Stream header flag: zstd and xz blocks of this stream may belong to histories (a zstd
     * frame or LZMA2 stream spread over blocks, see {@link #BLOCK_FLAG_CONTINUES}), so they
     * decode only in order.
     */
    public static final int STREAM_FLAG_HISTORY = 0x01;
    /**
     * Block header flag: the block continues the frame (or LZMA2 stream) of its history that
     * earlier blocks opened; without it, a block with a history id starts a new one.
     */
    public static final int BLOCK_FLAG_CONTINUES = 0x01;
    /**
     * Block header flag: the block starts a new stream for its history, primed with the last
     * {@code min(2 MiB, bytes so far)} bytes of the stream's content (every block's, whatever
     * its codec) as a raw zstd dictionary or an LZMA2 preset dictionary. Never with
     * {@link #BLOCK_FLAG_CONTINUES}.
     */
    public static final int BLOCK_FLAG_PRIMED = 0x02;
    /**
     * Block header flag: like {@link #BLOCK_FLAG_PRIMED}, with only the stream's last
     * {@code min(}{@value #SHORT_PRIME_LENGTH}{@code , bytes so far)} bytes, for codecs that
     * take long to load a dictionary. Never with another history flag.
     */
    public static final int BLOCK_FLAG_PRIMED_SHORT = 0x04;
    /**
     * Block header flag, from version 3, in a stream with histories: a <em>reset point</em>.
     * The reader drops every history and the stream's last bytes before the block, so neither
     * it nor any block after it depends on a block before it: a reader may start there. Never
     * with another history flag.
     */
    public static final int BLOCK_FLAG_RESET = 0x08;
    /** The bytes a {@link #BLOCK_FLAG_PRIMED} history starts from at most: 2 MiB. */
    public static final int PRIME_LENGTH = 2 << 20;
    /** The bytes a {@link #BLOCK_FLAG_PRIMED_SHORT} history starts from at most: 512 KiB. */
    public static final int SHORT_PRIME_LENGTH = 512 << 10;
    /**
     * Histories a stream may have open at once, and the largest history id (ids start at 1;
     * 0 is a block that decodes alone). With the stream's window, this bounds what a reader
     * holds: a window and up to a prime per history, and a stream's tail.
     */
    public static final int MAX_HISTORIES = 16;
    /** Log2 of the window (zstd window, LZMA2 dictionary) of a version 1 or 2 stream's histories: 2 MiB. */
    public static final int HISTORY_WINDOW_LOG = 21;
    /** Log2 of the smallest window a version 3 stream with histories may declare: 1 MiB. */
    public static final int MIN_WINDOW_LOG = 20;
    /** Log2 of the largest window a version 3 stream with histories may declare: 64 MiB. */
    public static final int MAX_WINDOW_LOG = 26;
    /**
     * Log2 of the largest window a reader accepts unless told otherwise: 8 MiB, the window of
     * {@code zstd -19} and {@code xz -6}.
     */
    public static final int DEFAULT_MAX_WINDOW_LOG = 23;
    /**
     * Stream bytes a history may miss (blocks sent at other rungs) before the writer primes it
     * afresh: half a prime, so the window then holds little of what came just before. The
     * writer's policy, not the format's: a reader follows the block flags whatever the writer
     * chose.
     */
    public static final long HISTORY_STALE_AFTER = PRIME_LENGTH / 2;
    /**
     * Content bytes that earn a stream one more prime: a history is primed again only after
     * missing {@link #HISTORY_STALE_AFTER} bytes, and any of {@link #MAX_HISTORIES} may be, so
     * 64 KiB.
     */
    public static final long CONTENT_PER_PRIME = HISTORY_STALE_AFTER / MAX_HISTORIES;

    private FrameFormat() {}

    /**
     * The bytes a frame of a block of {@code blockLength} bytes can take at most: a header and
     * the largest payload, a {@linkplain #maxHistoryPayload history block's}.
     */
    public static int maxFrameLength(int blockLength) {
        return BLOCK_HEADER_LENGTH + maxHistoryPayload(blockLength);
    }

    /**
     * The longest payload a block of {@code uncompressedLength} bytes in a history may have:
     * the content, plus the chunk headers zstd (3 bytes per 128 KiB raw block, a frame header)
     * and LZMA2 (3 to 6 bytes per 64 KiB chunk) add where the content does not shrink, which
     * keeps the history's stream open across data that does not compress, as the native tools'
     * streams stay open. A block that decodes alone is never longer than its content: it is
     * stored raw instead.
     */
    public static int maxHistoryPayload(int uncompressedLength) {
        return uncompressedLength + (uncompressedLength >>> 13) + 64;
    }

    /**
     * How many blocks of a stream may prime a history, given the content of the blocks before
     * the next one since the stream's start or its last reset point: every history may start
     * primed once, then one more prime per {@link #CONTENT_PER_PRIME} bytes. It is what a
     * writer that primes a history when it starts or has gone stale can reach; the reference
     * writer keeps to it and a reader enforces it, since setting a prime up costs a decoder up
     * to {@link #PRIME_LENGTH} bytes whatever the block's size.
     */
    public static long primesAllowed(long contentBefore) {
        return MAX_HISTORIES + contentBefore / CONTENT_PER_PRIME;
    }

    /** The length of a block header in a stream of {@code version}, one a reader accepts. */
    public static int blockHeaderLength(int version) {
        return version == VERSION_1 ? BLOCK_HEADER_LENGTH_V1 : BLOCK_HEADER_LENGTH;
    }

    /** Validates a reader's block-length ceiling. */
    public static int checkMaxBlockLength(int maxBlockLength) {
        if (maxBlockLength < 1 || maxBlockLength > MAX_BLOCK_LENGTH_LIMIT) {
            throw new IllegalArgumentException("maxBlockLength must be in [1, " + MAX_BLOCK_LENGTH_LIMIT
                    + "], was " + maxBlockLength);
        }
        return maxBlockLength;
    }

    /** Writes a stream header with this salt and no histories at {@code dst[offset]}; returns its length. */
    public static int writeStreamHeader(byte[] dst, int offset, int salt) {
        return writeStreamHeader(dst, offset, salt, 0);
    }

    /**
     * Writes a stream header at {@code dst[offset]}; returns its length.
     *
     * @param windowLog 0 for a stream whose blocks all decode alone; else log2 of the window
     *     its histories use ({@link #STREAM_FLAG_HISTORY}), {@link #MIN_WINDOW_LOG} to
     *     {@link #MAX_WINDOW_LOG}
     */
    public static int writeStreamHeader(byte[] dst, int offset, int salt, int windowLog) {
        if (windowLog != 0) {
            checkWindowLog(windowLog);
        }
        putInt(dst, offset, MAGIC);
        dst[offset + 4] = (byte) VERSION;
        dst[offset + 5] = (byte) (windowLog != 0 ? STREAM_FLAG_HISTORY : 0);
        dst[offset + 6] = (byte) windowLog;
        dst[offset + 7] = 0; // reserved
        putInt(dst, offset + 8, salt);
        return STREAM_HEADER_LENGTH;
    }

    /**
     * The log2 of a history window of {@code bytes}, which must be a power of two the format
     * allows ({@link #MIN_WINDOW_LOG} to {@link #MAX_WINDOW_LOG}).
     */
    public static int checkWindowSize(int bytes) {
        if (bytes <= 0 || Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("a history window must be a power of two, was " + bytes);
        }
        return checkWindowLog(Integer.numberOfTrailingZeros(bytes));
    }

    /** Validates a history window's log2 against what the format allows. */
    public static int checkWindowLog(int windowLog) {
        if (windowLog < MIN_WINDOW_LOG || windowLog > MAX_WINDOW_LOG) {
            throw new IllegalArgumentException("a history window must be 2^" + MIN_WINDOW_LOG + " to 2^"
                    + MAX_WINDOW_LOG + " bytes, was 2^" + windowLog);
        }
        return windowLog;
    }

    /**
     * Validates the stream header at {@code src[offset]} and returns its salt, which every
     * block header check of the stream is keyed with.
     */
    public static int readStreamHeader(byte[] src, int offset) throws FrameFormatException {
        int magic = getInt(src, offset);
        if (magic != MAGIC) {
            throw new BadMagicException(String.format(
                    "not an adaptive-compress stream: expected magic 0x%08X ('AdOC'), found 0x%08X", MAGIC, magic));
        }
        int version = version(src, offset);
        if (version < VERSION_1 || version > VERSION) {
            throw new UnsupportedVersionException("stream is format version " + version
                    + "; this reader supports versions " + VERSION_1 + " to " + VERSION);
        }
        int unknownFlags = src[offset + 5] & 0xFF & ~STREAM_FLAG_HISTORY;
        if (unknownFlags != 0) {
            throw new UnsupportedVersionException(String.format(
                    "stream header sets flag bits 0x%02X, which format version %d does not define", unknownFlags,
                    version));
        }
        int windowByte = src[offset + 6] & 0xFF;
        if (version < VERSION && windowByte != 0 || src[offset + 7] != 0) {
            throw new UnsupportedVersionException(String.format(
                    "stream header's reserved bytes are 0x%02X%02X; format version %d writes 0",
                    version < VERSION ? windowByte : 0, src[offset + 7], version));
        }
        if (version >= VERSION) {
            boolean history = usesHistory(src, offset);
            if (history ? windowByte < MIN_WINDOW_LOG || windowByte > MAX_WINDOW_LOG : windowByte != 0) {
                throw new UnsupportedVersionException("stream header declares a history window of log2 " + windowByte
                        + (history ? "; format version " + version + " allows " + MIN_WINDOW_LOG + " to "
                                + MAX_WINDOW_LOG : " in a stream without histories"));
            }
        }
        return getInt(src, offset + 8);
    }

    /** The version byte of the stream header at {@code src[offset]}, valid or not. */
    public static int version(byte[] src, int offset) {
        return src[offset + 4] & 0xFF;
    }

    /**
     * True if the valid stream header at {@code src[offset]} says its blocks may belong to
     * histories ({@link #STREAM_FLAG_HISTORY}).
     */
    public static boolean usesHistory(byte[] src, int offset) {
        return (src[offset + 5] & STREAM_FLAG_HISTORY) != 0;
    }

    /**
     * Log2 of the history window of the valid stream header at {@code src[offset]}: as it
     * declares it from version 3 on, {@link #HISTORY_WINDOW_LOG} before; 0 in a stream without
     * histories.
     */
    public static int windowLog(byte[] src, int offset) {
        if (!usesHistory(src, offset)) {
            return 0;
        }
        return version(src, offset) >= VERSION ? src[offset + 6] & 0xFF : HISTORY_WINDOW_LOG;
    }

    /**
     * Writes the header of a block that decodes alone at {@code dst[offset]}.
     *
     * @param codecId the codec's wire id, or {@link #END_OF_STREAM}
     * @param level informational level hint; clamped to a signed byte
     * @param streamOffset the stream's content bytes before this block (for the end marker: all of them)
     */
    public static void writeBlockHeader(byte[] dst, int offset, int salt, int codecId, int level,
            int uncompressedLength, int storedLength, int contentCrc, long streamOffset, CRC32C scratch) {
        writeBlockHeader(dst, offset, salt, codecId, level, 0, 0, uncompressedLength, storedLength, contentCrc,
                streamOffset, scratch);
    }

    /**
     * Writes a block header of the current {@link #VERSION} at {@code dst[offset]}.
     *
     * @param codecId the codec's wire id, or {@link #END_OF_STREAM}
     * @param level informational level hint; clamped to a signed byte
     * @param historyId the block's history, 1 to {@link #MAX_HISTORIES}, or 0 if it decodes alone
     * @param historyFlags {@link #BLOCK_FLAG_CONTINUES}, {@link #BLOCK_FLAG_PRIMED},
     *     {@link #BLOCK_FLAG_PRIMED_SHORT}, {@link #BLOCK_FLAG_RESET} or 0
     * @param streamOffset the stream's content bytes before this block (for the end marker: all of them)
     */
    public static void writeBlockHeader(byte[] dst, int offset, int salt, int codecId, int level, int historyId,
            int historyFlags, int uncompressedLength, int storedLength, int contentCrc, long streamOffset,
            CRC32C scratch) {
        writeHeaderFields(dst, offset, codecId, level, historyId, historyFlags, uncompressedLength, storedLength,
                contentCrc);
        putLong(dst, offset + 16, streamOffset);
        putInt(dst, offset + 24, headerCheck(dst, offset, 24, salt, scratch));
    }

    /**
     * Writes a {@link #VERSION_1} block header at {@code dst[offset]}: for tests and tools that
     * need streams as older writers made them.
     */
    public static void writeBlockHeaderV1(byte[] dst, int offset, int salt, int codecId, int level, int historyId,
            int historyFlags, int uncompressedLength, int storedLength, int contentCrc, CRC32C scratch) {
        writeHeaderFields(dst, offset, codecId, level, historyId, historyFlags, uncompressedLength, storedLength,
                contentCrc);
        putInt(dst, offset + 16, headerCheck(dst, offset, 16, salt, scratch));
    }

    private static void writeHeaderFields(byte[] dst, int offset, int codecId, int level, int historyId,
            int historyFlags, int uncompressedLength, int storedLength, int contentCrc) {
        dst[offset] = (byte) codecId;
        dst[offset + 1] = (byte) historyFlags;
        dst[offset + 2] = (byte) Math.max(Byte.MIN_VALUE, Math.min(Byte.MAX_VALUE, level));
        dst[offset + 3] = (byte) historyId;
        putInt(dst, offset + 4, uncompressedLength);
        putInt(dst, offset + 8, storedLength);
        putInt(dst, offset + 12, contentCrc);
    }

    /**
     * CRC32C over the salt (big-endian) followed by the block header's bytes before its check:
     * {@code checkedLength} is 24 from version 2 on, 16 in version 1.
     */
    public static int headerCheck(byte[] header, int offset, int checkedLength, int salt, CRC32C scratch) {
        scratch.reset();
        scratch.update(salt >>> 24);
        scratch.update(salt >>> 16);
        scratch.update(salt >>> 8);
        scratch.update(salt);
        scratch.update(header, offset, checkedLength);
        return (int) scratch.getValue();
    }

    /** Writes {@code value} big-endian at {@code dst[offset]}. */
    public static void putInt(byte[] dst, int offset, int value) {
        dst[offset] = (byte) (value >>> 24);
        dst[offset + 1] = (byte) (value >>> 16);
        dst[offset + 2] = (byte) (value >>> 8);
        dst[offset + 3] = (byte) value;
    }

    /** Writes {@code value} big-endian at {@code dst[offset]}. */
    public static void putLong(byte[] dst, int offset, long value) {
        putInt(dst, offset, (int) (value >>> 32));
        putInt(dst, offset + 4, (int) value);
    }

    /** Reads a big-endian long at {@code src[offset]}. */
    public static long getLong(byte[] src, int offset) {
        return (long) getInt(src, offset) << 32 | getInt(src, offset + 4) & 0xFFFFFFFFL;
    }

    /** Reads a big-endian int at {@code src[offset]}. */
    public static int getInt(byte[] src, int offset) {
        return (src[offset] & 0xFF) << 24 | (src[offset + 1] & 0xFF) << 16
                | (src[offset + 2] & 0xFF) << 8 | (src[offset + 3] & 0xFF);
    }
}
