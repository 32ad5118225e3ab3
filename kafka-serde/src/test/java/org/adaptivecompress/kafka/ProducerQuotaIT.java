package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A broker quota is a slow link: the throttled producer's acknowledgements lag, its in-flight
 * bytes grow, and its serializer climbs the ladder; an unthrottled producer sending the same
 * records stays lower.
 */
class ProducerQuotaIT {

    private static final int RECORDS = 4000;
    private static final int RECORD_SIZE = 1024;
    /** 200 KB/s: a few seconds for the records even at the top rung. */
    private static final double QUOTA_BYTES_PER_SECOND = 200_000;

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = new EmbeddedKafkaBroker().start();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "throttled"));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", QUOTA_BYTES_PER_SECOND)))))
                    .all().get();
        }
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static SerializerStatistics produce(String clientId, byte[] data) throws Exception {
        String topic = "quota-" + clientId;
        KafkaClients.createTopic(broker.bootstrapServers(), topic);
        Properties props = KafkaClients.adaptiveProducer(broker.bootstrapServers(), clientId);
        AdaptiveSerializer<String> keys = new AdaptiveSerializer<>();
        AdaptiveSerializer<byte[]> values = new AdaptiveSerializer<>();
        keys.configure(KafkaClients.asMap(props), true);
        values.configure(KafkaClients.asMap(props), false);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, keys, values)) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i,
                        Arrays.copyOfRange(data, i * RECORD_SIZE, (i + 1) * RECORD_SIZE)));
            }
            producer.flush();
        }
        return values.statistics();
    }

    @Test
    void throttledProducerClimbsHigherThanUnthrottledOnTheSameRecords() throws Exception {
        byte[] data = DataKind.JSON_EVENTS.generate(RECORDS * RECORD_SIZE);
        SerializerStatistics free = produce("unthrottled", data);
        SerializerStatistics throttled = produce("throttled", data);
        System.out.println("unthrottled: " + free + "\nthrottled:   " + throttled);
        assertThat(throttled.adaptive()).isTrue();
        assertThat(throttled.meanRung()).as("throttled %s vs unthrottled %s", throttled, free)
                .isGreaterThan(free.meanRung());
        // Where each ends, not how many records reached the top rung: on 1 KB JSON records zstd:12
        // and zstd:19 measure about the same ratio, so the throttled producer may stop below the
        // top, while the unthrottled one spends its first records there before anything is
        // acknowledged.
        assertThat(throttled.currentRung()).as("rung at the end, throttled %s vs unthrottled %s", throttled, free)
                .isGreaterThan(free.currentRung());
    }
}
