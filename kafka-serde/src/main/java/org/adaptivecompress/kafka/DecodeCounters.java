package org.adaptivecompress.kafka;

import java.util.concurrent.atomic.LongAdder;
import org.adaptivecompress.codec.CodecType;

/** What an {@link AdaptiveDeserializer} has read, counted from every consumer thread without a lock. */
final class DecodeCounters {

    private final LongAdder[] records = adders();
    private final LongAdder[] bytesIn = adders();
    private final LongAdder[] bytesOut = adders();
    private final LongAdder dictionaryRecords = new LongAdder();
    private final LongAdder unframedRecords = new LongAdder();

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[CodecType.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    void decoded(RecordFrame.Header header, int frameLength) {
        int c = header.codec.ordinal();
        records[c].increment();
        bytesIn[c].add(frameLength);
        bytesOut[c].add(header.uncompressedLength);
        if (header.dictionary) {
            dictionaryRecords.increment();
        }
    }

    void unframed() {
        unframedRecords.increment();
    }

    DeserializerStatistics snapshot() {
        return new DeserializerStatistics(sums(records), sums(bytesIn), sums(bytesOut), dictionaryRecords.sum(),
                unframedRecords.sum());
    }

    private static long[] sums(LongAdder[] adders) {
        long[] s = new long[adders.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = adders[i].sum();
        }
        return s;
    }
}
