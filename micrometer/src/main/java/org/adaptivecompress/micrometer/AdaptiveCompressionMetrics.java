package org.adaptivecompress.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.metrics.CompressionMetrics;
import org.adaptivecompress.metrics.StatisticsGroup;
import org.adaptivecompress.metrics.StatisticsMetric;

/**
 * Registers the statistics of an adaptive stream, a {@link StatisticsGroup} (every channel of a
 * Netty server, every file of a Hadoop job) or a Kafka serializer with a Micrometer registry: a
 * {@link FunctionCounter} for each counter, a {@link Gauge} for each gauge, named and tagged as
 * {@link StatisticsMetric} defines them (docs/METRICS.md), with the binder's tags added to
 * every meter, such as {@code integration=netty} or a stream's name.
 *
 * <pre>{@code
 * StatisticsGroup group = new StatisticsGroup();
 * AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().statisticsGroup(group).build();
 * AdaptiveCompressionMetrics.of(group, Tags.of("integration", "netty")).bindTo(registry);
 * }</pre>
 *
 * <p>Like Micrometer's own binders, the meters hold the source weakly: once it is garbage
 * collected they read NaN. Every read takes a fresh snapshot of the source.
 *
 * @param <T> the object the statistics are read from
 * @param <S> the statistics snapshot
 */
public final class AdaptiveCompressionMetrics<T, S> implements MeterBinder {

    private final T source;
    private final Function<T, S> snapshot;
    private final List<StatisticsMetric<S>> metrics;
    private final Tags tags;

    private AdaptiveCompressionMetrics(T source, Function<T, S> snapshot, List<StatisticsMetric<S>> metrics,
            Iterable<Tag> tags) {
        this.source = Objects.requireNonNull(source, "source is null");
        this.snapshot = Objects.requireNonNull(snapshot, "snapshot is null");
        this.metrics = List.copyOf(Objects.requireNonNull(metrics, "metrics is null"));
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags is null"));
    }

    /** The metrics of a group of streams (see {@link CompressionMetrics}). */
    public static AdaptiveCompressionMetrics<StatisticsGroup, CompressionStatistics> of(StatisticsGroup group,
            Iterable<Tag> tags) {
        return new AdaptiveCompressionMetrics<>(group, StatisticsGroup::statistics, CompressionMetrics.ALL, tags);
    }

    /**
     * The metrics of one stream, such as {@code of(out, AdaptiveOutputStream::statistics, tags)}
     * or a Netty encoder's (see {@link CompressionMetrics}).
     */
    public static <T> AdaptiveCompressionMetrics<T, CompressionStatistics> of(T stream,
            Function<T, CompressionStatistics> statistics, Iterable<Tag> tags) {
        return new AdaptiveCompressionMetrics<>(stream, statistics, CompressionMetrics.ALL, tags);
    }

    /**
     * Any statistics with their metric definitions, such as a Kafka serializer's:
     * {@code of(serializer, AdaptiveSerializer::statistics, SerializerMetrics.ALL, tags)}.
     */
    public static <T, S> AdaptiveCompressionMetrics<T, S> of(T source, Function<T, S> statistics,
            List<StatisticsMetric<S>> metrics, Iterable<Tag> tags) {
        return new AdaptiveCompressionMetrics<>(source, statistics, metrics, tags);
    }

    /**
     * Registers one meter per metric and tag value; the tag values (a ladder's rungs, the
     * reasons) are read from a snapshot taken now, and stay fixed.
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry is null");
        S now = snapshot.apply(source);
        for (StatisticsMetric<S> m : metrics) {
            List<String> values = m.tagValues(now);
            for (int i = 0; i < values.size(); i++) {
                int index = i;
                Tags meterTags = m.tagKey() == null ? tags : tags.and(m.tagKey(), values.get(i));
                if (m.type() == StatisticsMetric.Type.COUNTER) {
                    FunctionCounter.builder(m.name(), source, t -> m.value(snapshot.apply(t), index))
                            .description(m.description()).baseUnit(m.unit()).tags(meterTags).register(registry);
                } else {
                    Gauge.builder(m.name(), source, t -> m.value(snapshot.apply(t), index))
                            .description(m.description()).baseUnit(m.unit()).tags(meterTags).register(registry);
                }
            }
        }
    }
}
