package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The serde's figures in the producer's and the consumer's own metrics (KIP-877), after real traffic. */
class ClientMetricsIT {

    private static final int RECORDS = 2_000;
    private static final int RECORD_SIZE = 1024;

    @RegisterExtension
    static final BrokerExtension broker = new BrokerExtension();

    private static double sum(Map<MetricName, ? extends Metric> metrics, String name, String side) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && side.equals(e.getKey().tags().get("config")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    @Test
    void theClientsMetricsShowWhatTheSerdeDid() throws Exception {
        String topic = "producer-metrics";
        KafkaClients.createTopic(broker.bootstrapServers(), topic);
        byte[] data = DataKind.JSON_EVENTS.generate(RECORDS * RECORD_SIZE);
        Properties props = KafkaClients.adaptiveProducer(broker.bootstrapServers(), "producer-metrics");
        double produced;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i,
                        Arrays.copyOfRange(data, i * RECORD_SIZE, (i + 1) * RECORD_SIZE)));
            }
            producer.flush();
            Map<MetricName, ? extends Metric> metrics = producer.metrics();
            Map<String, String> valueTags = metrics.keySet().stream()
                    .filter(n -> n.name().equals("adaptive-serializer-input-total") && "zstd:3".equals(n.tags().get("rung"))
                            && "value.serializer".equals(n.tags().get("config")))
                    .findFirst().orElseThrow(() -> new AssertionError("no adaptive metric in " + metrics.keySet()))
                    .tags();

            assertThat(valueTags).containsEntry("class", AdaptiveSerializer.class.getSimpleName());
            assertThat(sum(metrics, "adaptive-serializer-records-total", "value.serializer")).isEqualTo(RECORDS);
            assertThat(sum(metrics, "adaptive-serializer-input-total", "value.serializer"))
                    .isEqualTo((double) RECORDS * RECORD_SIZE);
            double out = sum(metrics, "adaptive-serializer-output-total", "value.serializer");
            assertThat(out).isPositive().isLessThan(RECORDS * RECORD_SIZE / 2.0);
            assertThat(sum(metrics, "adaptive-serializer-adaptive", "value.serializer")).isEqualTo(1.0);
            assertThat(sum(metrics, "adaptive-serializer-records-total", "key.serializer")).isEqualTo(RECORDS);
            assertThat(sum(metrics, "adaptive-serializer-decisions-total", "value.serializer")).isPositive();

            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            assertThat(server.queryNames(new ObjectName("kafka.producer:type=plugins,*"), null).stream()
                    .map(ObjectName::toString).collect(Collectors.joining("\n")))
                    .as("Kafka's JMX reporter shows them too").contains("AdaptiveSerializer");
            produced = out;
        }

        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                KafkaClients.adaptiveConsumer(broker.bootstrapServers()))) {
            assertThat(KafkaClients.readAll(consumer, topic, RECORDS, Duration.ofSeconds(60))).hasSize(RECORDS);
            Map<MetricName, ? extends Metric> metrics = consumer.metrics();

            assertThat(sum(metrics, "adaptive-deserializer-records-total", "value.deserializer")).isEqualTo(RECORDS);
            assertThat(sum(metrics, "adaptive-deserializer-output-total", "value.deserializer"))
                    .isEqualTo((double) RECORDS * RECORD_SIZE);
            assertThat(sum(metrics, "adaptive-deserializer-input-total", "value.deserializer")).isEqualTo(produced);
            assertThat(metrics.keySet()).anySatisfy(n -> assertThat(n.tags())
                    .containsEntry("config", "key.deserializer").containsEntry("codec", "zstd"));
        }
    }
}
