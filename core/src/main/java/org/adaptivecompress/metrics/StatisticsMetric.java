package org.adaptivecompress.metrics;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;
import java.util.function.ToDoubleFunction;

/**
 * One figure of a statistics snapshot, as metrics systems publish it: a name in Micrometer's
 * dotted lowercase style, whether it is a counter or a gauge, its base unit, what it means,
 * and, for a figure kept per rung or per reason, the tag that tells the series apart. The
 * Micrometer binder, the MBeans, Kafka's client metrics and the metrics reference in the docs
 * all read these definitions ({@link CompressionMetrics#ALL} and the Kafka serializer's), so
 * they never drift apart. Immutable.
 *
 * @param <S> the snapshot the figure is read from
 */
public final class StatisticsMetric<S> {

    /** How a metrics system treats the figure. */
    public enum Type {
        /** Counts since the start; never decreases, so a rate is its slope. */
        COUNTER,
        /** A value now, which may go up or down. */
        GAUGE
    }

    private final String name;
    private final Type type;
    private final String unit;
    private final String description;
    private final String tagKey;
    private final Function<S, List<String>> tagValues;
    private final ToDoubleBiFunction<S, Integer> value;

    private StatisticsMetric(String name, Type type, String unit, String description, String tagKey,
            Function<S, List<String>> tagValues, ToDoubleBiFunction<S, Integer> value) {
        if (!name.matches("[a-z][a-z0-9]*(\\.[a-z0-9]+)*")) {
            throw new IllegalArgumentException("metric name must be dotted lowercase, was '" + name + "'");
        }
        this.name = name;
        this.type = Objects.requireNonNull(type, "type is null");
        this.unit = unit;
        this.description = Objects.requireNonNull(description, "description is null");
        this.tagKey = tagKey;
        this.tagValues = tagValues;
        this.value = value;
    }

    /**
     * A figure with one value.
     *
     * @param unit the base unit ({@code bytes}, {@code blocks}...), or null for a pure number
     */
    public static <S> StatisticsMetric<S> of(String name, Type type, String unit, String description,
            ToDoubleFunction<S> value) {
        Objects.requireNonNull(value, "value is null");
        return new StatisticsMetric<>(name, type, unit, description, null, null, (s, i) -> value.applyAsDouble(s));
    }

    /**
     * A figure kept per tag value: {@code tagValues} lists them for a snapshot (the same list
     * for every snapshot of one source, such as a ladder's rungs), and {@code value} reads the
     * figure of the value at an index of that list.
     */
    public static <S> StatisticsMetric<S> tagged(String name, Type type, String unit, String description,
            String tagKey, Function<S, List<String>> tagValues, ToDoubleBiFunction<S, Integer> value) {
        Objects.requireNonNull(tagKey, "tagKey is null");
        Objects.requireNonNull(tagValues, "tagValues is null");
        Objects.requireNonNull(value, "value is null");
        return new StatisticsMetric<>(name, type, unit, description, tagKey, tagValues, value);
    }

    /** The name, dotted lowercase, such as {@code adaptive.compress.bytes.in}. */
    public String name() {
        return name;
    }

    /** Counter or gauge. */
    public Type type() {
        return type;
    }

    /** The base unit, or null for a pure number. */
    public String unit() {
        return unit;
    }

    /** What the figure means, one sentence. */
    public String description() {
        return description;
    }

    /** The tag that tells the series apart, or null for a figure with one value. */
    public String tagKey() {
        return tagKey;
    }

    /** The tag values of {@code snapshot}'s series; one empty value for a figure with one value. */
    public List<String> tagValues(S snapshot) {
        return tagKey == null ? List.of("") : tagValues.apply(snapshot);
    }

    /** The figure of the series at {@code index} of {@link #tagValues}, in {@link #unit()}. */
    public double value(S snapshot, int index) {
        return value.applyAsDouble(snapshot, index);
    }

    /**
     * A markdown table of {@code metrics}: name, type, unit, tag and meaning; the metrics
     * reference in the docs is this table.
     */
    public static String markdownTable(List<? extends StatisticsMetric<?>> metrics) {
        StringBuilder sb = new StringBuilder("| Name | Type | Unit | Tag | Meaning |\n|---|---|---|---|---|\n");
        for (StatisticsMetric<?> m : metrics) {
            sb.append("| `").append(m.name).append("` | ").append(m.type.name().toLowerCase(Locale.ROOT))
                    .append(" | ").append(m.unit == null ? "" : m.unit)
                    .append(" | ").append(m.tagKey == null ? "" : "`" + m.tagKey + "`")
                    .append(" | ").append(m.description.replace("|", "\\|")).append(" |\n");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return name + (tagKey == null ? "" : "{" + tagKey + "}");
    }
}
