package org.adaptivecompress.kafka;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.adaptivecompress.codec.Ladder;

/**
 * A snapshot of one {@link AdaptiveSerializer}'s work: records and bytes per rung, the current
 * rung, and where its feedback comes from. Immutable; take a new one to see progress.
 */
public final class SerializerStatistics {

    private final Ladder ladder;
    private final boolean adaptive;
    private final int currentRung;
    private final long[] records;
    private final long[] bytesIn;
    private final long[] bytesOut;
    private final long incompressible;
    private final long decisions;
    private final long inFlightBytes;
    private final Map<String, Long> dictionaries;
    private final long dictionaryRecords;

    SerializerStatistics(Ladder ladder, boolean adaptive, int currentRung, long[] records, long[] bytesIn,
            long[] bytesOut, long incompressible, long decisions, long inFlightBytes) {
        this.ladder = ladder;
        this.adaptive = adaptive;
        this.currentRung = currentRung;
        this.records = records.clone();
        this.bytesIn = bytesIn.clone();
        this.bytesOut = bytesOut.clone();
        this.incompressible = incompressible;
        this.decisions = decisions;
        this.inFlightBytes = inFlightBytes;
        this.dictionaries = Collections.emptyMap();
        this.dictionaryRecords = 0;
    }

    private SerializerStatistics(SerializerStatistics s, long dictionaryRecords, Map<String, Long> dictionaries) {
        this.ladder = s.ladder;
        this.adaptive = s.adaptive;
        this.currentRung = s.currentRung;
        this.records = s.records;
        this.bytesIn = s.bytesIn;
        this.bytesOut = s.bytesOut;
        this.incompressible = s.incompressible;
        this.decisions = s.decisions;
        this.inFlightBytes = s.inFlightBytes;
        this.dictionaries = Collections.unmodifiableMap(new TreeMap<>(dictionaries));
        this.dictionaryRecords = dictionaryRecords;
    }

    /** This snapshot, with the records compressed with a dictionary and the trained dictionaries in use. */
    SerializerStatistics withDictionaries(long dictionaryRecords, Map<String, Long> liveIds) {
        return new SerializerStatistics(this, dictionaryRecords, liveIds);
    }

    /** Records compressed with a zstd dictionary, from a file or trained. */
    public long recordsWithDictionary() {
        return dictionaryRecords;
    }

    /**
     * For each topic whose records use a dictionary this serializer trained or found in the
     * dictionary topic, that dictionary's id (unsigned); empty without online dictionaries.
     */
    public Map<String, Long> dictionaries() {
        return dictionaries;
    }

    /** The ladder rung indexes refer to. */
    public Ladder ladder() {
        return ladder;
    }

    /**
     * True if the rung follows the producer's in-flight bytes (the interceptor is configured);
     * false if the serializer uses the fixed {@code adaptive.fallback.rung}.
     */
    public boolean adaptive() {
        return adaptive;
    }

    /** The rung the next record will be tried at. */
    public int currentRung() {
        return currentRung;
    }

    /** Records stored at {@code rung}; short and incompressible records count under rung 0. */
    public long records(int rung) {
        return records[rung];
    }

    /** Bytes the delegate serializer produced for the records stored at {@code rung}. */
    public long bytesIn(int rung) {
        return bytesIn[rung];
    }

    /** Frame bytes returned to the producer for the records stored at {@code rung}. */
    public long bytesOut(int rung) {
        return bytesOut[rung];
    }

    /** Records framed in all (null values, which stay null, are not counted). */
    public long totalRecords() {
        long n = 0;
        for (long r : records) {
            n += r;
        }
        return n;
    }

    /** Bytes the delegate serializer produced, in all. */
    public long totalBytesIn() {
        long n = 0;
        for (long b : bytesIn) {
            n += b;
        }
        return n;
    }

    /** Frame bytes returned to the producer, in all. */
    public long totalBytesOut() {
        long n = 0;
        for (long b : bytesOut) {
            n += b;
        }
        return n;
    }

    /** Records stored raw because they would not shrink (or followed such records). */
    public long incompressibleRecords() {
        return incompressible;
    }

    /** How many times the controller has decided. */
    public long decisions() {
        return decisions;
    }

    /** The producer's in-flight bytes of this side at the last decision. */
    public long inFlightBytes() {
        return inFlightBytes;
    }

    /** The highest rung that stored at least {@code minRecords} records, or -1 if none did. */
    public int highestRungWithAtLeast(long minRecords) {
        for (int r = records.length - 1; r >= 0; r--) {
            if (records[r] >= minRecords && records[r] > 0) {
                return r;
            }
        }
        return -1;
    }

    /** The average rung over all records, weighted by record count; 0 if there were none. */
    public double meanRung() {
        long n = 0;
        long sum = 0;
        for (int r = 0; r < records.length; r++) {
            n += records[r];
            sum += r * records[r];
        }
        return n == 0 ? 0 : (double) sum / n;
    }

    /** Records per rung, e.g. {@code raw=3 lz4=10 zstd:3=5}, unused rungs left out. */
    public String recordsByRung() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < records.length; r++) {
            if (records[r] > 0) {
                sb.append(sb.length() > 0 ? " " : "").append(ladder.rung(r)).append('=').append(records[r]);
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "SerializerStatistics{" + (adaptive ? "adaptive" : "fixed (no interceptor)") + ", rung="
                + ladder.rung(currentRung) + ", records: " + recordsByRung() + ", in=" + totalBytesIn() + ", out="
                + totalBytesOut() + ", incompressible=" + incompressible + ", decisions=" + decisions + "}";
    }
}
