package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Producer and consumer settings and helpers shared by the integration tests and the benchmark. */
final class KafkaClients {

    private KafkaClients() {}

    /** Producer properties: adaptive serde for keys (String) and values (byte[]), linked interceptor. */
    static Properties adaptiveProducer(String bootstrap, String clientId) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", clientId);
        p.put("key.serializer", AdaptiveSerializer.class.getName());
        p.put("value.serializer", AdaptiveSerializer.class.getName());
        p.put(AdaptiveSerdeConfig.KEY_DELEGATE_SERIALIZER, StringSerializer.class.getName());
        p.put(AdaptiveSerdeConfig.DELEGATE_SERIALIZER, ByteArraySerializer.class.getName());
        p.put("interceptor.classes", AdaptiveProducerInterceptor.class.getName());
        p.put("linger.ms", "5");
        return p;
    }

    /** Consumer properties: adaptive serde for String keys and byte[] values, no group. */
    static Properties adaptiveConsumer(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.deserializer", AdaptiveDeserializer.class.getName());
        p.put("value.deserializer", AdaptiveDeserializer.class.getName());
        p.put(AdaptiveSerdeConfig.KEY_DELEGATE_DESERIALIZER, StringDeserializer.class.getName());
        p.put(AdaptiveSerdeConfig.DELEGATE_DESERIALIZER, ByteArrayDeserializer.class.getName());
        p.put("max.partition.fetch.bytes", String.valueOf(8 << 20));
        return p;
    }

    /** The properties as the map a serializer's configure() receives. */
    static Map<String, Object> asMap(Properties p) {
        Map<String, Object> m = new java.util.HashMap<>();
        p.forEach((k, v) -> m.put((String) k, v));
        return m;
    }

    static void createTopic(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    /** Reads {@code count} records of partition 0 from the start, failing after {@code timeout}. */
    static <K, V> List<ConsumerRecord<K, V>> readAll(KafkaConsumer<K, V> consumer, String topic, int count,
            Duration timeout) {
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<ConsumerRecord<K, V>> out = new ArrayList<>(count);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("read " + out.size() + " of " + count + " records of " + topic + " in " + timeout);
            }
            consumer.poll(Duration.ofMillis(200)).forEach(out::add);
        }
        return out;
    }
}
