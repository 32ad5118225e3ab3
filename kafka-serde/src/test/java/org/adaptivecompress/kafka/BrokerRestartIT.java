package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A broker restarted while the adaptive serializer produces: the producer's retries carry every
 * record across, each arrives once, in order and byte for byte, and the serializer still adapts
 * afterwards (its interceptor's backlog drains with the acknowledgements of the retried batches).
 */
@Timeout(180)
class BrokerRestartIT {

    private static final String TOPIC = "restarted";
    private static final int RECORDS = 3000;

    private EmbeddedKafkaBroker broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = new EmbeddedKafkaBroker().start();
        KafkaClients.createTopic(broker.bootstrapServers(), TOPIC);
    }

    @AfterEach
    void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyRecordArrivesOnceAndIntactAcrossARestart() throws Exception {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            values.add(DataKind.values()[i % DataKind.values().length].generate(2048 + i % 7 * 1024));
        }
        Properties props = KafkaClients.adaptiveProducer(broker.bootstrapServers(), "restart-producer");
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        props.put("delivery.timeout.ms", "120000");
        props.put("request.timeout.ms", "10000");
        props.put("retry.backoff.ms", "100");
        props.put("reconnect.backoff.max.ms", "500");
        AdaptiveSerializer<String> keys = new AdaptiveSerializer<>();
        AdaptiveSerializer<byte[]> serializer = new AdaptiveSerializer<>();
        keys.configure(KafkaClients.asMap(props), true);
        serializer.configure(KafkaClients.asMap(props), false);
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, keys, serializer)) {
            CountDownLatch restarted = new CountDownLatch(1);
            AtomicInteger sent = new AtomicInteger();
            int[] sentDuringRestart = new int[2];
            Thread operator = new Thread(() -> {
                sentDuringRestart[0] = sent.get();
                broker.restart();
                sentDuringRestart[1] = sent.get();
                restarted.countDown();
            }, "broker-restart");
            for (int i = 0; i < RECORDS; i++) {
                sends.add(producer.send(new ProducerRecord<>(TOPIC, "k" + i, values.get(i))));
                sent.incrementAndGet();
                if (i == RECORDS / 3) {
                    operator.start(); // batches in flight and records still coming while it is down
                }
                if (i % 100 == 0) {
                    Thread.sleep(2); // production spread over the outage, not all queued before it
                }
            }
            assertThat(restarted.await(120, TimeUnit.SECONDS)).as("the broker came back").isTrue();
            assertThat(sentDuringRestart[1]).as("records were produced while the broker was down")
                    .isGreaterThan(sentDuringRestart[0]);
            for (Future<RecordMetadata> f : sends) {
                f.get(150, TimeUnit.SECONDS); // throws if a record was not delivered
            }
        }
        assertThat(serializer.statistics().adaptive()).isTrue();
        assertThat(serializer.statistics().totalRecords()).as("each record serialized once; retries resend batches")
                .isEqualTo(RECORDS);

        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                KafkaClients.adaptiveConsumer(broker.bootstrapServers()))) {
            List<ConsumerRecord<String, byte[]>> read = KafkaClients.readAll(consumer, TOPIC, RECORDS,
                    Duration.ofSeconds(60));
            assertThat(read).hasSize(RECORDS);
            for (int i = 0; i < RECORDS; i++) {
                assertThat(read.get(i).key()).isEqualTo("k" + i);
                assertThat(read.get(i).value()).as("record %d", i).isEqualTo(values.get(i));
            }
        }
    }
}
