package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Producer -> real KRaft broker -> consumer, every data kind, headers, tombstones, many threads. */
class KafkaRoundTripIT {

    private static final int RECORDS = 10_000;
    private static final int RECORD_SIZE = 1024;
    private static final int THREADS = 4;
    private static final int TOMBSTONE_EVERY = 97;

    @RegisterExtension
    static final BrokerExtension broker = new BrokerExtension();

    private static byte[] record(byte[] data, int i) {
        return Arrays.copyOfRange(data, i * RECORD_SIZE, (i + 1) * RECORD_SIZE);
    }

    @ParameterizedTest
    @EnumSource(DataKind.class)
    void tenThousandRecordsRoundTripFromConcurrentProducerThreads(DataKind kind) throws Exception {
        String topic = "roundtrip-" + kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
        KafkaClients.createTopic(broker.bootstrapServers(), topic);
        byte[] data = kind.generate(RECORDS * RECORD_SIZE);
        AdaptiveSerializer<String> keys = new AdaptiveSerializer<>();
        AdaptiveSerializer<byte[]> values = new AdaptiveSerializer<>();
        Properties props = KafkaClients.adaptiveProducer(broker.bootstrapServers(), "roundtrip-" + kind);
        keys.configure(KafkaClients.asMap(props), true);
        values.configure(KafkaClients.asMap(props), false);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, keys, values)) {
            List<Future<?>> sends = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int first = t;
                sends.add(pool.submit(() -> {
                    for (int i = first; i < RECORDS; i += THREADS) {
                        RecordHeaders headers = new RecordHeaders();
                        headers.add("index", ByteBuffer.allocate(4).putInt(i).array());
                        byte[] value = i % TOMBSTONE_EVERY == 0 ? null : record(data, i);
                        producer.send(new ProducerRecord<>(topic, null, "key-" + i, value, headers));
                    }
                }));
            }
            for (Future<?> f : sends) {
                f.get();
            }
            producer.flush();
        } finally {
            pool.shutdown();
        }
        assertThat(values.statistics().totalRecords()).isEqualTo(RECORDS - (RECORDS + TOMBSTONE_EVERY - 1) / TOMBSTONE_EVERY);
        assertThat(values.statistics().adaptive()).isTrue();

        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                KafkaClients.adaptiveConsumer(broker.bootstrapServers()))) {
            List<ConsumerRecord<String, byte[]>> read = KafkaClients.readAll(consumer, topic, RECORDS,
                    Duration.ofSeconds(60));
            boolean[] seen = new boolean[RECORDS];
            for (ConsumerRecord<String, byte[]> r : read) {
                Header h = r.headers().lastHeader("index");
                int i = ByteBuffer.wrap(h.value()).getInt();
                assertThat(r.key()).isEqualTo("key-" + i);
                if (i % TOMBSTONE_EVERY == 0) {
                    assertThat(r.value()).as("tombstone %d", i).isNull();
                } else {
                    assertThat(r.value()).as("%s record %d", kind, i).isEqualTo(record(data, i));
                }
                seen[i] = true;
            }
            for (int i = 0; i < RECORDS; i++) {
                assertThat(seen[i]).as("record %d", i).isTrue();
            }
        }
    }

    @Test
    void consumerReadsValuesWrittenBeforeTheMigrationWithLegacyPassthrough() throws Exception {
        String topic = "migration";
        KafkaClients.createTopic(broker.bootstrapServers(), topic);
        byte[] old = "{\"written\":\"before\"}".getBytes(StandardCharsets.UTF_8);
        byte[] fresh = DataKind.JSON_EVENTS.generate(2048);
        Properties legacy = KafkaClients.adaptiveProducer(broker.bootstrapServers(), "legacy-producer");
        legacy.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(legacy)) {
            producer.send(new ProducerRecord<>(topic, "old", old)).get();
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                KafkaClients.adaptiveProducer(broker.bootstrapServers(), "migrated-producer"))) {
            producer.send(new ProducerRecord<>(topic, "new", fresh)).get();
        }
        Properties consumerProps = KafkaClients.adaptiveConsumer(broker.bootstrapServers());
        consumerProps.put(AdaptiveSerdeConfig.LEGACY_PASSTHROUGH, "true");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            List<ConsumerRecord<String, byte[]>> read = KafkaClients.readAll(consumer, topic, 2, Duration.ofSeconds(30));
            assertThat(read.get(0).value()).isEqualTo(old);
            assertThat(read.get(1).value()).isEqualTo(fresh);
        }
    }

    @Test
    void producersStayInsideTheBudgetConsumersShare() throws Exception {
        String topic = "budget";
        KafkaClients.createTopic(broker.bootstrapServers(), topic);
        byte[] data = DataKind.JSON_EVENTS.generate(200 * RECORD_SIZE);
        Properties producerProps = KafkaClients.adaptiveProducer(broker.bootstrapServers(), "budget-producer");
        producerProps.put(AdaptiveSerdeConfig.RECEIVER_BUDGET, "lz4");
        producerProps.put(AdaptiveSerdeConfig.CONTROLLER, "fixed:6"); // zstd:19: outside, so lz4
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerProps)) {
            for (int i = 0; i < 200; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, record(data, i)));
            }
            producer.flush();
        }
        Properties consumerProps = KafkaClients.adaptiveConsumer(broker.bootstrapServers());
        consumerProps.put(AdaptiveSerdeConfig.RECEIVER_BUDGET, "lz4");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            List<ConsumerRecord<String, byte[]>> read = KafkaClients.readAll(consumer, topic, 200, Duration.ofSeconds(30));
            for (int i = 0; i < 200; i++) {
                assertThat(read.get(i).value()).isEqualTo(record(data, i));
            }
        }
        consumerProps.put("value.deserializer", ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            for (ConsumerRecord<String, byte[]> r : KafkaClients.readAll(consumer, topic, 200, Duration.ofSeconds(30))) {
                assertThat(r.value()[1] & RecordFrame.CODEC_MASK).isIn(CodecType.RAW.id(), CodecType.LZ4.id());
            }
        }
    }
}
