package org.adaptivecompress.kafka;

import static org.adaptivecompress.metrics.StatisticsMetric.Type.COUNTER;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleBiFunction;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.metrics.StatisticsMetric;

/**
 * The metrics of an {@link AdaptiveDeserializer}, read from {@link DeserializerStatistics}: what
 * it adds to the consumer's own metrics (see {@link AdaptiveDeserializer#withPluginMetrics}).
 * Counts kept per codec carry the tag {@value #CODEC_TAG} ({@code raw}, {@code lz4},
 * {@code zstd}, {@code xz}, {@code deflate}): a frame names its codec, not the level.
 */
public final class DeserializerMetrics {

    /** What every name starts with. */
    public static final String PREFIX = "adaptive.deserializer.";
    /** The tag of figures kept per codec. */
    public static final String CODEC_TAG = "codec";

    private static final List<String> CODEC_NAMES = codecNames();

    /** Every metric, in the order of the reference. */
    public static final List<StatisticsMetric<DeserializerStatistics>> ALL = List.of(
            perCodec("records", null, "Frames read that were stored with the codec.", (s, c) -> s.records(codec(c))),
            perCodec("input", "bytes", "Bytes of those frames, frame headers included.", (s, c) -> s.bytesIn(codec(c))),
            perCodec("output", "bytes", "Bytes those frames decoded to, handed to the delegate deserializer.",
                    (s, c) -> s.bytesOut(codec(c))),
            StatisticsMetric.of(PREFIX + "records.dictionary", COUNTER, null, "Frames read with a zstd dictionary.",
                    DeserializerStatistics::recordsWithDictionary),
            StatisticsMetric.of(PREFIX + "records.unframed", COUNTER, null,
                    "Values handed to the delegate unchanged because they were not framed"
                            + " (adaptive.legacy.passthrough).",
                    DeserializerStatistics::unframedRecords));

    private DeserializerMetrics() {}

    private static CodecType codec(int index) {
        return DeserializerStatistics.codecs().get(index);
    }

    private static StatisticsMetric<DeserializerStatistics> perCodec(String name, String unit, String description,
            ToDoubleBiFunction<DeserializerStatistics, Integer> value) {
        return StatisticsMetric.tagged(PREFIX + name, COUNTER, unit, description, CODEC_TAG, s -> CODEC_NAMES, value);
    }

    private static List<String> codecNames() {
        List<String> names = new ArrayList<>();
        for (CodecType c : DeserializerStatistics.codecs()) {
            names.add(c.specName());
        }
        return List.copyOf(names);
    }
}
