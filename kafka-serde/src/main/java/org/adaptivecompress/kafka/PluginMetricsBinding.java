package org.adaptivecompress.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;
import org.adaptivecompress.metrics.StatisticsMetric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * Adds statistics to a Kafka client's own metrics through the {@link PluginMetrics} a
 * {@link org.apache.kafka.common.metrics.Monitorable} plugin is given (KIP-877), once both that
 * and the plugin's configuration are known, whichever comes first. Names follow Kafka's style:
 * a definition's dots become hyphens and a counter ends in {@code -total}, so
 * {@code adaptive.serializer.input} is {@code adaptive-serializer-input-total}.
 */
final class PluginMetricsBinding<S> {

    private final List<StatisticsMetric<S>> metrics;
    private final List<MetricName> registered = new ArrayList<>();
    private PluginMetrics pluginMetrics;
    private Supplier<S> source;

    PluginMetricsBinding(List<StatisticsMetric<S>> metrics) {
        this.metrics = metrics;
    }

    /** The client's plugin metrics are known; registers if the source is too. */
    synchronized void pluginMetrics(PluginMetrics pluginMetrics) {
        this.pluginMetrics = pluginMetrics;
        registerIfReady();
    }

    /** The plugin is (re)configured and reads its statistics from {@code source}; registers if the metrics are known. */
    synchronized void source(Supplier<S> source) {
        this.source = source;
        registerIfReady();
    }

    /** Kafka's name for a definition. */
    static String kafkaName(StatisticsMetric<?> metric) {
        return metric.name().replace('.', '-') + (metric.type() == StatisticsMetric.Type.COUNTER ? "-total" : "");
    }

    private void registerIfReady() {
        if (pluginMetrics == null || source == null) {
            return;
        }
        for (MetricName name : registered) {
            pluginMetrics.removeMetric(name);
        }
        registered.clear();
        S now = source.get();
        Supplier<S> read = source;
        for (StatisticsMetric<S> m : metrics) {
            List<String> values = m.tagValues(now);
            for (int i = 0; i < values.size(); i++) {
                LinkedHashMap<String, String> tags = new LinkedHashMap<>();
                if (m.tagKey() != null) {
                    tags.put(m.tagKey(), values.get(i));
                }
                MetricName name = pluginMetrics.metricName(kafkaName(m),
                        m.description() + (m.unit() == null ? "" : " (" + m.unit() + ")"), tags);
                int index = i;
                pluginMetrics.addMetric(name, (Measurable) (config, nowMillis) -> m.value(read.get(), index));
                registered.add(name);
            }
        }
    }
}
