package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.adaptivecompress.metrics.StatisticsMetric;
import org.junit.jupiter.api.Test;

class MetricsDocsTest {

    @Test
    void docsContainTheSerdeReferenceGeneratedFromTheDefinitions() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "METRICS.md"), StandardCharsets.UTF_8);

        assertThat(doc).as("docs/METRICS.md must contain StatisticsMetric.markdownTable(SerializerMetrics.ALL)"
                + " verbatim; regenerate it").contains(StatisticsMetric.markdownTable(SerializerMetrics.ALL))
                .contains(StatisticsMetric.markdownTable(DeserializerMetrics.ALL));
    }

    @Test
    void kafkaNamesFollowKafkasStyle() {
        assertThat(SerializerMetrics.ALL).extracting(PluginMetricsBinding::kafkaName)
                .contains("adaptive-serializer-input-total", "adaptive-serializer-in-flight", "adaptive-serializer-rung");
    }
}
