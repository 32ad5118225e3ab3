package org.adaptivecompress.kafka;

import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.Codecs;

/**
 * One thread's codec contexts for {@link AdaptiveSerializer}: a compressor per rung and, for the
 * zstd rungs, per dictionary (created on first use), a scratch buffer, and the incompressible-skip
 * state. Not thread-safe; pooled.
 *
 * <p>A value that does not shrink by 1/32 at its rung is stored raw; the next values of this
 * thread are then stored raw without trying, a run that doubles (up to
 * {@value #MAX_INCOMPRESSIBLE_SKIP}) while retries keep failing, as the core engine does for blocks.
 */
final class RecordEncoder implements AutoCloseable {

    static final int MAX_INCOMPRESSIBLE_SKIP = 64;

    private final Ladder ladder;
    private final BlockCompressor[] compressors;
    private final LruMap<ZstdDictionary, BlockCompressor[]> byDictionary;
    private byte[] scratch = new byte[4096];
    private int skipRemaining;
    private int skipRun = 1;

    /** Rung the last value was stored at (0 if raw). */
    int lastRung;
    /** Whether the last value was stored raw because it would not shrink. */
    boolean lastIncompressible;

    /**
     * @param maxDictionaries dictionaries this context keeps compressors for; the least recently
     *     used one's are closed first
     */
    RecordEncoder(Ladder ladder, int maxDictionaries) {
        this.ladder = ladder;
        this.compressors = new BlockCompressor[ladder.size()];
        this.byDictionary = new LruMap<>(maxDictionaries, RecordEncoder::closeAll);
    }

    /**
     * Frames {@code value} at {@code rung}, with {@code dictionary} (or none if {@code null}) if
     * the rung is zstd, or raw if it is short or does not shrink.
     */
    byte[] encode(byte[] value, int rung, int minCompressBytes, ZstdDictionary dictionary) {
        int length = value.length;
        lastIncompressible = false;
        lastRung = 0;
        if (rung == 0 || length < minCompressBytes || length == 0) {
            return raw(value);
        }
        if (skipRemaining > 0) {
            skipRemaining--;
            lastIncompressible = true;
            return raw(value);
        }
        Rung r = ladder.rung(rung);
        boolean withDictionary = dictionary != null && r.codec() == CodecType.ZSTD;
        int header = RecordFrame.headerLength(length, withDictionary);
        // Worth keeping only if the whole frame saves at least 1/32 of the value.
        int worthKeeping = length - (length >>> 5) - 1 - header + RecordFrame.headerLength(length, false);
        if (worthKeeping < 1) {
            return raw(value);
        }
        if (scratch.length < header + length) {
            scratch = new byte[Math.max(header + length, scratch.length * 2)];
        }
        BlockCompressor compressor = withDictionary ? compressor(rung, dictionary) : compressor(rung);
        int stored = compressor.compress(value, 0, length, scratch, header, worthKeeping);
        if (stored == BlockCompressor.DOES_NOT_FIT) {
            lastIncompressible = true;
            skipRemaining = skipRun;
            skipRun = Math.min(skipRun * 2, MAX_INCOMPRESSIBLE_SKIP);
            return raw(value);
        }
        skipRun = 1;
        lastRung = rung;
        RecordFrame.writeHeader(scratch, r.codec(), length, withDictionary ? dictionary.id : null);
        byte[] frame = new byte[header + stored];
        System.arraycopy(scratch, 0, frame, 0, frame.length);
        return frame;
    }

    private static byte[] raw(byte[] value) {
        int header = RecordFrame.headerLength(value.length, false);
        byte[] frame = new byte[header + value.length];
        RecordFrame.writeHeader(frame, CodecType.RAW, value.length, null);
        System.arraycopy(value, 0, frame, header, value.length);
        return frame;
    }

    private BlockCompressor compressor(int rung) {
        BlockCompressor c = compressors[rung];
        if (c == null) {
            c = Codecs.newCompressor(ladder.rung(rung));
            compressors[rung] = c;
        }
        return c;
    }

    private BlockCompressor compressor(int rung, ZstdDictionary dictionary) {
        BlockCompressor[] forDictionary = byDictionary.get(dictionary);
        if (forDictionary == null) {
            forDictionary = new BlockCompressor[ladder.size()];
            byDictionary.put(dictionary, forDictionary);
        }
        BlockCompressor c = forDictionary[rung];
        if (c == null) {
            c = new DictionaryZstdCompressor(ladder.rung(rung).level(), dictionary);
            forDictionary[rung] = c;
        }
        return c;
    }

    @Override
    public void close() {
        closeAll(compressors);
        for (BlockCompressor[] forDictionary : byDictionary.values()) {
            closeAll(forDictionary);
        }
        byDictionary.clear();
    }

    private static void closeAll(BlockCompressor[] all) {
        for (int i = 0; i < all.length; i++) {
            if (all[i] != null) {
                all[i].close();
                all[i] = null;
            }
        }
    }
}
