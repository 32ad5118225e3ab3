package org.adaptivecompress.kafka;

import static org.adaptivecompress.metrics.StatisticsMetric.Type.COUNTER;
import static org.adaptivecompress.metrics.StatisticsMetric.Type.GAUGE;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;
import org.adaptivecompress.metrics.CompressionMetrics;
import org.adaptivecompress.metrics.StatisticsMetric;

/**
 * The metrics of an {@link AdaptiveSerializer}, read from {@link SerializerStatistics}: what it
 * adds to the producer's own metrics (see {@link AdaptiveSerializer#withPluginMetrics}) and what
 * the Micrometer binder registers for a serializer instance. Counts kept per rung carry the tag
 * {@value CompressionMetrics#RUNG_TAG}, as a stream's do.
 */
public final class SerializerMetrics {

    /** What every name starts with. */
    public static final String PREFIX = "adaptive.serializer.";

    private static final Function<SerializerStatistics, List<String>> RUNG_NAMES =
            s -> CompressionMetrics.rungNames(s.ladder());

    /** Every metric, in the order of the reference. */
    public static final List<StatisticsMetric<SerializerStatistics>> ALL = List.of(
            StatisticsMetric.of(PREFIX + "rung", GAUGE, null, "Index of the rung the next record is tried at, from 0 (raw).",
                    SerializerStatistics::currentRung),
            StatisticsMetric.of(PREFIX + "adaptive", GAUGE, null,
                    "1 if the rung follows the producer's in-flight bytes (the interceptor is configured), 0 if it"
                            + " is the fixed adaptive.fallback.rung.",
                    s -> s.adaptive() ? 1 : 0),
            perRung("records", COUNTER, null, "Records stored at the rung; short and incompressible records count at"
                    + " raw; null values are not counted.", (s, r) -> s.records(r)),
            perRung("input", COUNTER, "bytes", "Bytes the delegate serializer produced for the records stored at"
                    + " the rung.", (s, r) -> s.bytesIn(r)),
            perRung("output", COUNTER, "bytes", "Bytes returned to the producer for the records stored at the rung,"
                    + " frame headers included.", (s, r) -> s.bytesOut(r)),
            StatisticsMetric.of(PREFIX + "records.incompressible", COUNTER, null,
                    "Records stored raw because they would not shrink, or followed such records.",
                    SerializerStatistics::incompressibleRecords),
            StatisticsMetric.of(PREFIX + "records.dictionary", COUNTER, null,
                    "Records compressed with a zstd dictionary, from a file or trained online.",
                    SerializerStatistics::recordsWithDictionary),
            StatisticsMetric.of(PREFIX + "decisions", COUNTER, null, "Times the controller chose a rung.",
                    SerializerStatistics::decisions),
            StatisticsMetric.of(PREFIX + "in.flight", GAUGE, "bytes",
                    "The producer's unacknowledged bytes the controller saw at its last decision.",
                    SerializerStatistics::inFlightBytes));

    private SerializerMetrics() {}

    private static StatisticsMetric<SerializerStatistics> perRung(String name, StatisticsMetric.Type type, String unit,
            String description, ToDoubleBiFunction<SerializerStatistics, Integer> value) {
        return StatisticsMetric.tagged(PREFIX + name, type, unit, description, CompressionMetrics.RUNG_TAG, RUNG_NAMES,
                value);
    }
}
