package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dictionaries trained online and shared through the dictionary topic, on a real broker: the
 * switch, consumers with no configuration, reuse by a second producer and after a restart, a
 * deleted topic, ids that never arrive or are rejected, two shapes, a shape that changes, and a
 * topic that cannot be created or written.
 */
class OnlineDictionaryIT {

    private static final int SIZE = 1024;
    @RegisterExtension
    static final BrokerExtension broker = new BrokerExtension();

    /** A producer whose value serializer trains quickly: 200 samples, checks every 200 ms. */
    private static final class Producer implements AutoCloseable {
        final AdaptiveSerializer<byte[]> values = new AdaptiveSerializer<>();
        final KafkaProducer<byte[], byte[]> producer;

        Producer(String clientId, String dictionaryTopic, Object... extra) {
            Properties p = KafkaClients.adaptiveProducer(broker.bootstrapServers(), clientId);
            p.put(AdaptiveSerdeConfig.DICTIONARY_TOPIC, dictionaryTopic);
            p.put(AdaptiveSerdeConfig.DICTIONARY_TRAINING_RECORDS, "200");
            p.put(AdaptiveSerdeConfig.DICTIONARY_CHECK_INTERVAL_MS, "200");
            p.put(AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS, "10000");
            // zstd rungs only, so every record can use the dictionary
            p.put(AdaptiveSerdeConfig.FALLBACK_RUNG, "2");
            p.remove("interceptor.classes");
            for (int i = 0; i < extra.length; i += 2) {
                p.put(extra[i], extra[i + 1]);
            }
            values.configure(KafkaClients.asMap(p), false);
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), values);
        }

        void send(String topic, List<byte[]> records) {
            for (byte[] r : records) {
                producer.send(new ProducerRecord<>(topic, r));
            }
            producer.flush();
        }

        /** Sends {@code records} round and round until {@code done} or 60 s pass. */
        List<byte[]> sendUntil(String topic, List<byte[]> records, BooleanSupplier done) {
            List<byte[]> sent = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            for (int i = 0; !done.getAsBoolean(); i++) {
                assertThat(System.nanoTime()).as("condition not met in 60 s").isLessThan(deadline);
                List<byte[]> batch = records.subList((i * 50) % records.size(), (i * 50) % records.size() + 50);
                send(topic, batch);
                sent.addAll(batch);
                sleep(20);
            }
            return sent;
        }

        Long dictionary(String topic) {
            return values.statistics().dictionaries().get(topic);
        }

        @Override
        public void close() {
            producer.close();
        }
    }

    private static List<byte[]> records(byte[] data) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i + SIZE <= data.length; i += SIZE) {
            out.add(Arrays.copyOfRange(data, i, i + SIZE));
        }
        return out;
    }

    private static List<byte[]> json(long seed) {
        return records(DataKind.jsonEvents(1000 * SIZE, seed));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Reads the topic with a deserializer configured with nothing but the dictionary topic. */
    private static List<byte[]> readBack(String topic, String dictionaryTopic, int count) {
        Properties p = KafkaClients.adaptiveConsumer(broker.bootstrapServers());
        p.put(AdaptiveSerdeConfig.DICTIONARY_TOPIC, dictionaryTopic);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                SerdeConfigs.deserializer(KafkaClients.asMap(p)))) {
            List<byte[]> values = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : KafkaClients.readAll(consumer, topic, count, Duration.ofSeconds(60))) {
                values.add(r.value());
            }
            return values;
        }
    }

    /** The frames as stored, to see which carry a dictionary id. */
    private static List<byte[]> rawFrames(String topic, int count) {
        Properties p = new Properties();
        p.put("bootstrap.servers", broker.bootstrapServers());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<byte[]> values = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : KafkaClients.readAll(consumer, topic, count, Duration.ofSeconds(60))) {
                values.add(r.value());
            }
            return values;
        }
    }

    private static long framesWithDictionary(List<byte[]> frames) {
        return frames.stream().filter(f -> (f[1] & RecordFrame.FLAG_DICTIONARY) != 0).count();
    }

    private static int recordsIn(String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", broker.bootstrapServers());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            return (int) (long) consumer.endOffsets(List.of(tp)).get(tp);
        }
    }

    private static void assertSameValues(List<byte[]> read, List<byte[]> sent) {
        assertThat(read).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(read.get(i)).as("record %d", i).isEqualTo(sent.get(i));
        }
    }

    @Test
    void producerSwitchesAfterTheBrokerStoresTheDictionaryAndALaterConsumerNeedsNoFiles() throws Exception {
        String topic = "events-switch";
        String dictionaries = "dicts-switch";
        List<byte[]> sent = new ArrayList<>();
        try (Producer a = new Producer("switch", dictionaries)) {
            sent.addAll(a.sendUntil(topic, json(1), () -> a.dictionary(topic) != null));
            List<byte[]> more = json(2).subList(0, 300);
            a.send(topic, more);
            sent.addAll(more);
            long id = a.dictionary(topic);
            assertThat(recordsIn(dictionaries)).isEqualTo(1);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, dictionaries);
                assertThat(admin.describeConfigs(List.of(r)).all().get().get(r)
                        .get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
            }
            List<byte[]> frames = rawFrames(topic, sent.size());
            assertThat(framesWithDictionary(frames.subList(frames.size() - 300, frames.size())))
                    .as("records after the switch").isEqualTo(300);
            assertThat(frames.get(0)[1] & RecordFrame.FLAG_DICTIONARY).as("the first record").isZero();
            byte[] last = frames.get(frames.size() - 1);
            RecordFrame.Header h = RecordFrame.parse(topic, last, Integer.MAX_VALUE);
            assertThat(h.codec).isEqualTo(CodecType.ZSTD);
            assertThat(Integer.toUnsignedLong(h.dictionaryId)).isEqualTo(id);
        }
        assertSameValues(readBack(topic, dictionaries, sent.size()), sent);
    }

    @Test
    void aSecondProducerAndARestartedOneReuseThePublishedDictionary() {
        String topic = "events-reuse";
        String dictionaries = "dicts-reuse";
        List<byte[]> sent = new ArrayList<>();
        long id;
        try (Producer first = new Producer("reuse-1", dictionaries)) {
            sent.addAll(first.sendUntil(topic, json(3), () -> first.dictionary(topic) != null));
            id = first.dictionary(topic);
            try (Producer second = new Producer("reuse-2", dictionaries)) {
                sent.addAll(second.sendUntil(topic, json(4), () -> second.dictionary(topic) != null));
                assertThat(second.dictionary(topic)).isEqualTo(id);
            }
        }
        try (Producer restarted = new Producer("reuse-1", dictionaries)) {
            sent.addAll(restarted.sendUntil(topic, json(5), () -> restarted.dictionary(topic) != null));
            assertThat(restarted.dictionary(topic)).isEqualTo(id);
        }
        assertThat(recordsIn(dictionaries)).as("dictionaries published").isEqualTo(1);
        assertSameValues(readBack(topic, dictionaries, sent.size()), sent);
    }

    @Test
    void aDeletedDictionaryTopicIsPublishedAgainAndNoRecordIsLeftUnreadable() throws Exception {
        String topic = "events-deleted";
        String dictionaries = "dicts-deleted";
        List<byte[]> sent = new ArrayList<>();
        try (Producer p = new Producer("deleted", dictionaries)) {
            sent.addAll(p.sendUntil(topic, json(6), () -> p.dictionary(topic) != null));
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.deleteTopics(List.of(dictionaries)).all().get();
                sent.addAll(p.sendUntil(topic, json(7), () -> topicHolds(admin, dictionaries)));
            }
            List<byte[]> more = json(8).subList(0, 100);
            p.send(topic, more);
            sent.addAll(more);
        }
        assertSameValues(readBack(topic, dictionaries, sent.size()), sent);
    }

    private static boolean topicHolds(Admin admin, String topic) {
        try {
            if (!admin.listTopics().names().get().contains(topic)) {
                return false;
            }
            return recordsIn(topic) > 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void twoTopicsWithDifferentShapesGetTheirOwnDictionaries() {
        String events = "shapes-events";
        String text = "shapes-text";
        String dictionaries = "dicts-shapes";
        List<byte[]> sentEvents = new ArrayList<>();
        List<byte[]> sentText = new ArrayList<>();
        List<byte[]> textRecords = records(DataKind.LOG_LINES.generate(1000 * SIZE));
        try (Producer p = new Producer("shapes", dictionaries)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<byte[]> eventRecords = json(9);
            for (int i = 0; p.dictionary(events) == null || p.dictionary(text) == null; i++) {
                assertThat(System.nanoTime()).as("both dictionaries within 60 s").isLessThan(deadline);
                int from = (i * 50) % 950;
                p.send(events, eventRecords.subList(from, from + 50));
                sentEvents.addAll(eventRecords.subList(from, from + 50));
                p.send(text, textRecords.subList(from, from + 50));
                sentText.addAll(textRecords.subList(from, from + 50));
            }
            assertThat(p.dictionary(events)).isNotEqualTo(p.dictionary(text));
        }
        assertThat(recordsIn(dictionaries)).isEqualTo(2);
        assertSameValues(readBack(events, dictionaries, sentEvents.size()), sentEvents);
        assertSameValues(readBack(text, dictionaries, sentText.size()), sentText);
    }

    @Test
    void aTopicWhoseDataChangesShapeGetsANewDictionary() {
        String topic = "events-change";
        String dictionaries = "dicts-change";
        List<byte[]> sent = new ArrayList<>();
        try (Producer p = new Producer("change", dictionaries)) {
            sent.addAll(p.sendUntil(topic, json(10), () -> p.dictionary(topic) != null));
            long first = p.dictionary(topic);
            List<byte[]> lines = records(DataKind.LOG_LINES.generate(1000 * SIZE));
            sent.addAll(p.sendUntil(topic, lines, () -> p.dictionary(topic) != null && p.dictionary(topic) != first));
        }
        assertThat(recordsIn(dictionaries)).isEqualTo(2);
        assertSameValues(readBack(topic, dictionaries, sent.size()), sent);
    }

    @Test
    void anIdThatNeverArrivesIsATypedErrorNamingIdAndTopicAfterTheTimeout() throws Exception {
        String dictionaries = "dicts-missing";
        KafkaClients.createTopic(broker.bootstrapServers(), dictionaries);
        byte[] frame = frameNaming(0x1234567);
        for (String topic : new String[] {dictionaries, "dicts-never-created"}) {
            Map<String, Object> c = SerdeConfigs.with("bootstrap.servers", broker.bootstrapServers(),
                    AdaptiveSerdeConfig.DICTIONARY_TOPIC, topic, AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS, "1000");
            try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(c)) {
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> de.deserialize("events", frame))
                        .isInstanceOf(DictionaryUnavailableException.class)
                        .hasMessageContaining("dictionary id " + 0x1234567).hasMessageContaining(topic)
                        .satisfies(e -> {
                            assertThat(((DictionaryUnavailableException) e).dictionaryTopic()).isEqualTo(topic);
                            assertThat(((DictionaryUnavailableException) e).dictionaryId()).isEqualTo(0x1234567);
                        });
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("bounded wait").isLessThan(Duration.ofSeconds(20));
            }
        }
    }

    @Test
    void dictionariesTooLargeOrDamagedOrUnderTheWrongKeyAreRejected() throws Exception {
        String dictionaries = "dicts-rejected";
        byte[] good = DictionaryTrainer.train(json(11), 16 * 1024);
        ZstdDictionary valid = ZstdDictionary.of(good, good.length);
        byte[] damaged = good.clone();
        Arrays.fill(damaged, 8, 136, (byte) 0xFF);
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(dictionaries, DictionaryTopic.key(valid.id), damaged)).get();
            raw.send(new ProducerRecord<>(dictionaries, DictionaryTopic.key(42), good)).get();
        }
        Map<String, Object> c = SerdeConfigs.with("bootstrap.servers", broker.bootstrapServers(),
                AdaptiveSerdeConfig.DICTIONARY_TOPIC, dictionaries, AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS, "1000");
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(c)) {
            assertThatThrownBy(() -> de.deserialize("events", frameNaming(valid.id)))
                    .isInstanceOf(DictionaryUnavailableException.class).hasMessageContaining("zstd refuses");
            assertThatThrownBy(() -> de.deserialize("events", frameNaming(42)))
                    .isInstanceOf(DictionaryUnavailableException.class).hasMessageContaining("own id is " + valid.idString());
        }
        c.put(AdaptiveSerdeConfig.DICTIONARY_MAX_BYTES, "1024");
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(dictionaries, DictionaryTopic.key(valid.id), good)).get();
        }
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(c)) {
            assertThatThrownBy(() -> de.deserialize("events", frameNaming(valid.id)))
                    .isInstanceOf(DictionaryUnavailableException.class).hasMessageContaining("over the limit of 1024");
        }
    }

    /** A zstd frame header naming dictionary {@code id}, with a payload that is never decoded. */
    private static byte[] frameNaming(int id) {
        byte[] frame = new byte[RecordFrame.MAX_HEADER_LENGTH + 16];
        int header = RecordFrame.writeHeader(frame, CodecType.ZSTD, 100, id);
        return Arrays.copyOf(frame, header + 16);
    }

    @Test
    void aDictionaryTopicThatCannotBeCreatedOrWrittenLeavesRecordsWithoutADictionary() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("dicts-tiny", 1, (short) 1).configs(Map.of(
                    TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1000")))).all().get();
        }
        int n = 0;
        for (String dictionaries : new String[] {"dicts-tiny", "bad dictionary topic!"}) {
            String topic = "events-refused-" + n++;
            try (LogCapture warnings = LogCapture.of(OnlineDictionaries.class, Level.WARN);
                    Producer p = new Producer("refused-" + n, dictionaries)) {
                List<byte[]> sent = p.sendUntil(topic, json(12), () -> !warnings.lines().isEmpty());
                assertThat(warnings.lines()).first().asString().contains(dictionaries);
                assertThat(p.dictionary(topic)).isNull();
                assertThat(framesWithDictionary(rawFrames(topic, sent.size()))).isZero();
                assertSameValues(readBack(topic, "", sent.size()), sent);
            }
        }
    }

    @Test
    void topicsBeyondTheLimitGetNoDictionary() {
        try (LogCapture info = LogCapture.of(OnlineDictionaries.class, Level.INFO);
                Producer p = new Producer("limit", "dicts-limit", AdaptiveSerdeConfig.DICTIONARY_MAX_TOPICS, "1")) {
            p.sendUntil("limit-a", json(13), () -> p.dictionary("limit-a") != null);
            p.send("limit-b", json(14));
            assertThat(p.values.statistics().dictionaries()).containsOnlyKeys("limit-a");
            assertThat(info.lines()).anySatisfy(line -> assertThat(line)
                    .contains("topic limit-b and later ones get no dictionary"));
        }
    }
}
