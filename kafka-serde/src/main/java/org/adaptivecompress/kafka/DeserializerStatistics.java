package org.adaptivecompress.kafka;

import java.util.List;
import org.adaptivecompress.codec.CodecType;

/**
 * A snapshot of one {@link AdaptiveDeserializer}'s work: records and bytes per codec, records
 * read with a dictionary, and values passed on unframed. Immutable; take a new one to see
 * progress.
 */
public final class DeserializerStatistics {

    private static final List<CodecType> CODECS = List.of(CodecType.values());

    private final long[] records;
    private final long[] bytesIn;
    private final long[] bytesOut;
    private final long dictionaryRecords;
    private final long unframedRecords;

    DeserializerStatistics(long[] records, long[] bytesIn, long[] bytesOut, long dictionaryRecords,
            long unframedRecords) {
        this.records = records.clone();
        this.bytesIn = bytesIn.clone();
        this.bytesOut = bytesOut.clone();
        this.dictionaryRecords = dictionaryRecords;
        this.unframedRecords = unframedRecords;
    }

    /** The codecs a frame may name, in the order of their ids: the index of the per-codec figures. */
    public static List<CodecType> codecs() {
        return CODECS;
    }

    /** Frames read that were stored with {@code codec}. */
    public long records(CodecType codec) {
        return records[codec.ordinal()];
    }

    /** Bytes of the frames read that were stored with {@code codec}, headers included. */
    public long bytesIn(CodecType codec) {
        return bytesIn[codec.ordinal()];
    }

    /** Bytes those frames decoded to, handed to the delegate. */
    public long bytesOut(CodecType codec) {
        return bytesOut[codec.ordinal()];
    }

    /** Frames read in all. */
    public long totalRecords() {
        long n = 0;
        for (long r : records) {
            n += r;
        }
        return n;
    }

    /** Frames read with a zstd dictionary. */
    public long recordsWithDictionary() {
        return dictionaryRecords;
    }

    /** Values handed to the delegate unchanged because they were not framed ({@code adaptive.legacy.passthrough}). */
    public long unframedRecords() {
        return unframedRecords;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("DeserializerStatistics{");
        for (CodecType c : CODECS) {
            if (records(c) > 0) {
                sb.append(c.specName()).append('=').append(records(c)).append(' ');
            }
        }
        return sb.append("dictionary=").append(dictionaryRecords).append(", unframed=").append(unframedRecords)
                .append('}').toString();
    }
}
