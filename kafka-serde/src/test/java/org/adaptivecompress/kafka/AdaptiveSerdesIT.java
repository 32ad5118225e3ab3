package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.IntegerDeserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka Streams topology on the in-JVM broker that writes through {@link AdaptiveSerdes} and
 * reads its own output back through it: every value arrives, the topic holds adaptive frames,
 * and small values get the dictionary the serde trained.
 */
class AdaptiveSerdesIT {

    private static final int RECORDS = 3000;
    @RegisterExtension
    static final BrokerExtension broker = new BrokerExtension();

    @TempDir
    Path stateDir;

    @Test
    void aTopologyWritesAndReadsAdaptiveValues() throws Exception {
        for (String t : new String[] {"events", "shouted", "lengths"}) {
            KafkaClients.createTopic(broker.bootstrapServers(), t);
        }
        List<String> values = new ArrayList<>();
        byte[] json = DataKind.jsonEvents(RECORDS * 1024, 7);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String v = new String(json, i * 1024, 1024, StandardCharsets.ISO_8859_1);
                values.add(v);
                producer.send(new ProducerRecord<>("events", "k" + i, v));
            }
        }

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "adaptive-serdes-it");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(stateDir).toString());
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        props.put(AdaptiveSerdeConfig.FALLBACK_RUNG, "2"); // zstd:1, so the trained dictionary is used
        props.put(AdaptiveSerdeConfig.DICTIONARY_TRAINING_RECORDS, "200");
        Serde<String> adaptive = AdaptiveSerdes.wrap(Serdes.String(), KafkaClients.asMap(props));

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("events", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v.toUpperCase(Locale.ROOT))
                .to("shouted", Produced.with(Serdes.String(), adaptive));
        builder.stream("shouted", Consumed.with(Serdes.String(), adaptive))
                .mapValues(String::length)
                .to("lengths", Produced.with(Serdes.String(), Serdes.Integer()));
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
            streams.start();
            List<ConsumerRecord<String, Integer>> lengths = readAll("lengths", new IntegerDeserializer());
            assertThat(lengths).allSatisfy(r -> assertThat(r.value()).isEqualTo(1024));
        }

        List<ConsumerRecord<String, byte[]>> frames = readAll("shouted", new ByteArrayDeserializer());
        assertThat(frames).allSatisfy(r -> assertThat(r.value()[0] & 0xFF).isEqualTo(RecordFrame.MAGIC));
        assertThat(frames.stream().filter(r -> (r.value()[1] & RecordFrame.FLAG_DICTIONARY) != 0).count())
                .as("values compressed with the trained dictionary").isPositive();

        Properties consumer = KafkaClients.adaptiveConsumer(broker.bootstrapServers());
        // Kafka does not configure instances it is given: configured here, it reads the dictionary topic.
        AdaptiveDeserializer<String> reader = new AdaptiveDeserializer<>(new StringDeserializer());
        reader.configure(KafkaClients.asMap(consumer), false);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(consumer, new StringDeserializer(), reader)) {
            List<ConsumerRecord<String, String>> read = KafkaClients.readAll(c, "shouted", RECORDS, Duration.ofSeconds(60));
            for (ConsumerRecord<String, String> r : read) {
                int i = Integer.parseInt(r.key().substring(1));
                assertThat(r.value()).isEqualTo(values.get(i).toUpperCase(Locale.ROOT));
            }
        }
        adaptive.close();
    }

    private static <V> List<ConsumerRecord<String, V>> readAll(String topic,
            org.apache.kafka.common.serialization.Deserializer<V> values) {
        try (KafkaConsumer<String, V> c = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                new StringDeserializer(), values)) {
            return KafkaClients.readAll(c, topic, RECORDS, Duration.ofSeconds(90));
        }
    }
}
