package org.adaptivecompress.internal.format;

import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.format.ChecksumMismatchException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.adaptivecompress.internal.codec.Codecs;
import org.adaptivecompress.internal.codec.HistoryDecompressor;
import org.adaptivecompress.internal.codec.Prime;

/**
 * Decodes block payloads and verifies them against their header's checksum.
 *
 * <p>Keeps one decompressor per codec and one per history, created on first use and
 * reused; not thread-safe. Blocks of a stream with histories must be decoded in stream order.
 */
public final class BlockDecoder implements AutoCloseable {

    private final Map<CodecType, BlockDecompressor> decompressors = new EnumMap<>(CodecType.class);
    /** Decoders of the stream's histories, by id, made when a block opens one. */
    private final HistoryDecompressor[] histories = new HistoryDecompressor[FrameFormat.MAX_HISTORIES + 1];
    /** The codec of each history's decoder. */
    private final CodecType[] historyCodecs = new CodecType[FrameFormat.MAX_HISTORIES + 1];
    private final CRC32C crc = new CRC32C();
    /** The prime of the block being decoded, over {@link #tail}. */
    private final TailPrime prime = new TailPrime();
    /** The stream's last bytes, which a primed history starts from; null unless it has histories. */
    private StreamTail tail;
    /** Content bytes of the stream's blocks so far, which earn its primes. */
    private long content;
    /** Blocks of the stream that primed a history so far. */
    private long primes;
    /** Log2 of the stream's history window; 0 in a stream without histories. */
    private int windowLog;

    /**
     * Decodes the payload {@code src[offset, offset + header.storedLength())} into
     * {@code dst[dstOffset, dstOffset + header.uncompressedLength())} and checks its CRC32C.
     *
     * @param position the block's offset in the stream, for error messages
     */
    public void decode(BlockHeader header, byte[] src, int offset, byte[] dst, int dstOffset, long position)
            throws CorruptFrameException {
        try {
            if (header.historyId() != 0) {
                Prime p = header.primesHistory() ? primeFor(header, position) : null;
                history(header, position).decompress(header.continuesHistory(), p, src, offset,
                        header.storedLength(), dst, dstOffset, header.uncompressedLength());
            } else {
                decompressors.computeIfAbsent(header.codec(), Codecs::newDecompressor)
                        .decompress(src, offset, header.storedLength(), dst, dstOffset, header.uncompressedLength());
            }
        } catch (DataFormatException e) {
            throw new CorruptFrameException(
                    "block at stream offset " + position + " does not decode: " + e.getMessage(), e);
        }
        verify(header, dst, dstOffset, position);
    }

    /**
     * Checks decoded bytes {@code data[offset, offset + header.uncompressedLength())} against
     * their header's CRC32C: what a reader calls instead of {@link #decode} when it read a raw
     * payload straight into place.
     *
     * @param position the block's offset in the stream, for error messages
     */
    public void verify(BlockHeader header, byte[] data, int offset, long position) throws ChecksumMismatchException {
        content += header.uncompressedLength();
        crc.reset();
        crc.update(data, offset, header.uncompressedLength());
        checkCrc(header, position);
        if (tail != null) {
            tail.append(data, offset, header.uncompressedLength());
        }
    }

    /**
     * Checks the decoded bytes remaining in {@code data} (exactly
     * {@code header.uncompressedLength()} of them, heap or direct) against their header's
     * CRC32C, consuming them.
     *
     * @param position the block's offset in the stream, for error messages
     */
    public void verify(BlockHeader header, ByteBuffer data, long position) throws ChecksumMismatchException {
        if (data.remaining() != header.uncompressedLength()) {
            throw new IllegalArgumentException("expected " + header.uncompressedLength() + " decoded bytes, got "
                    + data.remaining());
        }
        if (tail != null) {
            tail.append(data);
        }
        content += header.uncompressedLength();
        crc.reset();
        crc.update(data);
        checkCrc(header, position);
    }

    private void checkCrc(BlockHeader header, long position) throws ChecksumMismatchException {
        int actual = (int) crc.getValue();
        if (actual != header.contentCrc()) {
            throw new ChecksumMismatchException(String.format(
                    "block at stream offset %d decodes to bytes whose CRC32C is 0x%08X, header says 0x%08X",
                    position, actual, header.contentCrc()));
        }
    }

    /**
     * Forgets the histories and the content of the stream before: call it after each stream
     * header, so a block of a concatenated stream cannot continue or start from the one before.
     * Every block of a stream with histories must then pass through {@link #decode} or a
     * {@code verify}, in stream order, since a primed history starts from the stream's last
     * bytes.
     *
     * @param windowLog log2 of the new stream's history window ({@link FrameFormat#windowLog}),
     *     0 if it has no histories
     */
    public void newStream(int windowLog) {
        if (windowLog != this.windowLog) {
            closeHistories(); // made for another window
            this.windowLog = windowLog;
        }
        resetPoint();
        if (windowLog == 0) {
            tail = null;
        } else if (tail == null) {
            tail = new StreamTail(FrameFormat.PRIME_LENGTH);
        }
    }

    /**
     * Drops the histories and the stream's last bytes, as a reset point's block
     * ({@link FrameFormat#BLOCK_FLAG_RESET}) asks before it is decoded: call it once its header
     * is parsed.
     */
    public void resetPoint() {
        content = 0;
        primes = 0;
        for (HistoryDecompressor h : histories) {
            if (h != null) {
                h.dropFrame();
            }
        }
        if (tail != null) {
            tail.clear();
        }
    }

    /**
     * The stream's last bytes that the block's history starts from, if the stream may prime
     * once more ({@link FrameFormat#primesAllowed}): a stream of tiny priming blocks would
     * otherwise cost far more than its bytes.
     */
    private Prime primeFor(BlockHeader header, long position) throws CorruptFrameException {
        long allowed = FrameFormat.primesAllowed(content);
        if (primes >= allowed) {
            throw new CorruptFrameException("block at stream offset " + position + " primes its history past the"
                    + " stream's budget: " + (primes + 1) + " primes for " + content
                    + " bytes of content, where at most " + allowed + " fit: no writer primes that often");
        }
        primes++;
        prime.max = header.primeLength();
        return prime;
    }

    /** The tail's last {@code max} bytes, without copying them until a decompressor asks. */
    private final class TailPrime implements Prime {
        int max;
        /** The last array {@link #toArray} made, filled again by the next of the same length. */
        private byte[] array;

        @Override
        public int length() {
            return tail.held(max);
        }

        @Override
        public void copyTo(ByteBuffer dst) {
            tail.copyTo(max, dst);
        }

        @Override
        public byte[] toArray() {
            array = tail.snapshot(max, array);
            return array;
        }
    }

    /** The decoder of the block's history: its codec's, made anew when an id changes codec. */
    private HistoryDecompressor history(BlockHeader header, long position) throws CorruptFrameException {
        int id = header.historyId();
        if (historyCodecs[id] != header.codec()) {
            if (header.continuesHistory()) {
                throw new CorruptFrameException("block at stream offset " + position + " is a " + header.codec()
                        + " block continuing history " + id + ", which " + (historyCodecs[id] == null
                                ? "no earlier block opened" : "holds " + historyCodecs[id] + " blocks"));
            }
            if (histories[id] != null) {
                histories[id].close();
            }
            histories[id] = Codecs.newHistoryDecompressor(header.codec(), windowLog);
            historyCodecs[id] = header.codec();
        }
        return histories[id];
    }

    /** Frees every decompressor's native resources. */
    @Override
    public void close() {
        for (BlockDecompressor decompressor : decompressors.values()) {
            decompressor.close();
        }
        decompressors.clear();
        closeHistories();
    }

    private void closeHistories() {
        for (int i = 0; i < histories.length; i++) {
            if (histories[i] != null) {
                histories[i].close();
                histories[i] = null;
                historyCodecs[i] = null;
            }
        }
    }
}
