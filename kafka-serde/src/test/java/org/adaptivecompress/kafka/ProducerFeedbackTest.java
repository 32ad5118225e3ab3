package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The serializer and interceptor linked by client.id, driven as KafkaProducer drives them: the
 * serializer per record, the interceptor per acknowledgement (the broker's part is played by
 * acknowledging, or not, what was serialized).
 */
class ProducerFeedbackTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    private static Map<String, Object> linked(String clientId) {
        return SerdeConfigs.with("client.id", clientId,
                "interceptor.classes", AdaptiveProducerInterceptor.class.getName());
    }

    /** Linked, with AdOC's rule, whose every step follows from the backlog alone. */
    private static Map<String, Object> linkedAdoc(String clientId) {
        Map<String, Object> cfg = linked(clientId);
        cfg.put(AdaptiveSerdeConfig.CONTROLLER, "adoc");
        return cfg;
    }

    private static byte[] record(byte[] data, int i) {
        return Arrays.copyOfRange(data, i * 1024, (i + 1) * 1024);
    }

    /**
     * After the first decisions, waits out the linger and the interval a backlog must stand
     * before the first acknowledgement counts as a slow link rather than a connection being made.
     */
    static void brokerSilentForAnInterval(int record) {
        if (record == 64) {
            try {
                Thread.sleep(StandingBacklog.INTERVAL_MILLIS + 50);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static RecordMetadata ack(int valueSize) {
        return new RecordMetadata(TP, 0, 0, 0, -1, valueSize);
    }

    @Test
    void climbsWhileNothingIsAcknowledgedAndFallsWhenAcksDrainTheBacklog() {
        Map<String, Object> cfg = linkedAdoc("feedback-climb");
        byte[] data = DataKind.JSON_EVENTS.generate(4000 * 1024);
        Deque<Integer> unacked = new ArrayDeque<>();
        AdaptiveProducerInterceptor interceptor = new AdaptiveProducerInterceptor();
        interceptor.configure(cfg);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg)) {
            for (int i = 0; i < 2000; i++) {
                unacked.add(ser.serialize("t", record(data, i)).length);
                brokerSilentForAnInterval(i);
            }
            SerializerStatistics stalled = ser.statistics();
            assertThat(stalled.adaptive()).isTrue();
            assertThat(stalled.currentRung()).as(stalled.toString()).isEqualTo(stalled.ladder().top());

            // The broker catches up: every record is acknowledged as soon as it is serialized.
            while (!unacked.isEmpty()) {
                interceptor.onAcknowledgement(ack(unacked.poll()), null);
            }
            for (int i = 2000; i < 4000; i++) {
                interceptor.onAcknowledgement(ack(ser.serialize("t", record(data, i)).length), null);
            }
            SerializerStatistics drained = ser.statistics();
            // AdOC halves the rung when the backlog shrinks and keeps it while it stays flat.
            assertThat(drained.currentRung()).as(drained.toString()).isLessThan(stalled.currentRung());
            assertThat(drained.inFlightBytes()).as("only the record just serialized").isLessThanOrEqualTo(1024 + 4);
        } finally {
            interceptor.close();
        }
    }

    @Test
    void failedSendsWithUnknownSizeStillLeaveTheBacklog() {
        Map<String, Object> cfg = linked("feedback-fail");
        AdaptiveProducerInterceptor interceptor = new AdaptiveProducerInterceptor();
        interceptor.configure(cfg);
        InFlightRegistry.Entry entry = InFlightRegistry.acquire("feedback-fail");
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg)) {
            byte[] data = DataKind.LOG_LINES.generate(100 * 1024);
            for (int i = 0; i < 100; i++) {
                ser.serialize("t", record(data, i));
            }
            assertThat(entry.values.bytes()).isPositive();
            for (int i = 0; i < 100; i++) {
                interceptor.onAcknowledgement(null, new TimeoutException("expired"));
            }
            assertThat(entry.values.bytes()).isZero();
            // A null value (size -1, no error) was never counted, so it changes nothing.
            interceptor.onAcknowledgement(new RecordMetadata(TP, 0, 0, 0, -1, -1), null);
            assertThat(entry.values.bytes()).isZero();
        } finally {
            InFlightRegistry.release("feedback-fail");
            interceptor.close();
        }
    }

    @Test
    void producersWithDifferentClientIdsDoNotShareABacklog() {
        SerializerStatistics[] ab = stalledAndKeptUp(linkedAdoc("feedback-a"), linkedAdoc("feedback-b"), 1000);
        assertThat(ab[0].highestRungWithAtLeast(1)).isEqualTo(ab[0].ladder().top());
        assertThat(ab[1].highestRungWithAtLeast(1)).isZero();
    }

    @Test
    void theDefaultControllerCompressesHarderWhileNothingIsAcknowledgedThanWhileTheBrokerKeepsUp() {
        SerializerStatistics[] ab = stalledAndKeptUp(linked("feedback-default-a"), linked("feedback-default-b"), 3000);
        SerializerStatistics stalled = ab[0];
        SerializerStatistics keptUp = ab[1];
        // Nothing drains: the link measures as carrying nothing, slower than any codec, so the
        // stream goes to the rung with the best ratio, the top.
        assertThat(stalled.highestRungWithAtLeast(1)).as(stalled.toString()).isEqualTo(stalled.ladder().top());
        assertThat(stalled.currentRung()).as(stalled.toString()).isGreaterThan(2);
        // Every record acknowledged at once never forms a backlog: the link carried all it was
        // given, so the stream steps down from its start-up rung to the fast ones (raw, lz4,
        // zstd:1 are rungs 0-2 of the serde's ladder).
        assertThat(keptUp.currentRung()).as(keptUp.toString()).isLessThanOrEqualTo(2);
        assertThat(keptUp.meanRung()).isLessThan(stalled.meanRung());
    }

    /**
     * Two producers serializing the same records side by side: the first never sees an
     * acknowledgement, the second sees each record acknowledged as soon as it is serialized.
     * Returns their serializers' statistics, in that order.
     */
    private static SerializerStatistics[] stalledAndKeptUp(Map<String, Object> a, Map<String, Object> b, int records) {
        byte[] data = DataKind.JSON_EVENTS.generate(records * 1024);
        AdaptiveProducerInterceptor ia = new AdaptiveProducerInterceptor();
        ia.configure(a);
        AdaptiveProducerInterceptor ib = new AdaptiveProducerInterceptor();
        ib.configure(b);
        try (AdaptiveSerializer<byte[]> sa = SerdeConfigs.serializer(a);
                AdaptiveSerializer<byte[]> sb = SerdeConfigs.serializer(b)) {
            for (int i = 0; i < records; i++) {
                sa.serialize("t", record(data, i)); // never acknowledged
                ib.onAcknowledgement(ack(sb.serialize("t", record(data, i)).length), null);
                brokerSilentForAnInterval(i);
            }
            return new SerializerStatistics[] {sa.statistics(), sb.statistics()};
        } finally {
            ia.close();
            ib.close();
        }
    }

    @Test
    void interceptorOutsideAProducerIsAConfigError() {
        assertThatThrownBy(() -> new AdaptiveProducerInterceptor().configure(Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("client.id");
    }
}
