package org.adaptivecompress.examples.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.adaptivecompress.examples.ExampleData;
import org.adaptivecompress.kafka.AdaptiveDeserializer;
import org.adaptivecompress.kafka.AdaptiveProducerInterceptor;
import org.adaptivecompress.kafka.AdaptiveSerdeConfig;
import org.adaptivecompress.kafka.AdaptiveSerializer;
import org.adaptivecompress.kafka.EmbeddedKafkaBroker;
import org.adaptivecompress.kafka.SerializerStatistics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A producer and a consumer of JSON events through {@link AdaptiveSerializer} (with
 * {@link AdaptiveProducerInterceptor}, so it adapts to the producer's backlog) and
 * {@link AdaptiveDeserializer}. Prints the records sent and received and the serializer's
 * records per rung.
 *
 * <p>With no bootstrap servers it starts its own single-node KRaft broker on 127.0.0.1
 * ({@link EmbeddedKafkaBroker}). Point it at a cluster with a first argument or
 * {@code -Dbootstrap.servers=host:9092}: then no broker is started, and it creates the topic
 * ({@code -Dtopic=...}, default {@value #DEFAULT_TOPIC}) with the cluster's defaults if it is
 * missing and reads back only what it wrote. {@code -Drecords=N} sets how many records (default 20000).
 */
public final class KafkaExample {

    static final String DEFAULT_TOPIC = "adaptive-compress-example";
    private static final String CLIENT_ID = "adaptive-compress-example-producer";
    /** How long the consumer waits for the records it expects before it gives up. */
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(60);

    private KafkaExample() {}

    /** Runs the example; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String bootstrap = args.length > 0 ? args[0] : System.getProperty("bootstrap.servers");
        String topic = System.getProperty("topic", DEFAULT_TOPIC);
        int records = Integer.getInteger("records", 20_000);
        Result result;
        if (bootstrap == null) {
            try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start()) {
                System.out.printf(Locale.ROOT, "started an embedded KRaft broker on %s in %d ms%n",
                        broker.bootstrapServers(), broker.startupMillis());
                result = run(broker.bootstrapServers(), topic, records);
            }
        } else {
            System.out.println("using the cluster at " + bootstrap + ", topic " + topic);
            result = run(bootstrap, topic, records);
        }
        SerializerStatistics s = result.statistics();
        System.out.printf(Locale.ROOT, "sent %,d records (%,d bytes of JSON) in %.2f s, received %,d; all equal: %s%n",
                result.sent().size(), s.totalBytesIn(), result.sendNanos() / 1e9, result.received().size(),
                result.allReceived());
        System.out.printf(Locale.ROOT, "serialized to %,d bytes (ratio %.2f); records per rung: %s; adaptive: %s%n",
                s.totalBytesOut(), s.totalBytesIn() / (double) Math.max(1, s.totalBytesOut()), s.recordsByRung(),
                s.adaptive());
        System.out.printf(Locale.ROOT, "records compressed with the dictionary the serializer trained: %,d "
                + "(ids by topic: %s)%n", s.recordsWithDictionary(), s.dictionaries());
        if (!result.allReceived()) {
            throw new IllegalStateException("the records received differ from those sent");
        }
    }

    /** What was sent, what came back, and how the serializer compressed it. */
    record Result(List<String> sent, List<String> received, SerializerStatistics statistics, long sendNanos) {
        boolean allReceived() {
            return sent.stream().sorted().toList().equals(received.stream().sorted().toList());
        }
    }

    /** Sends {@code count} JSON events to {@code topic} and reads them back. */
    static Result run(String bootstrap, String topic, int count) throws Exception {
        List<TopicPartition> partitions = createTopic(bootstrap, topic);
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
            consumer.assign(partitions);
            // only what this run writes: a real cluster's topic may hold earlier runs' records
            Map<TopicPartition, Long> start = consumer.endOffsets(partitions);
            start.forEach(consumer::seek);

            List<String> sent = new ArrayList<>(count);
            AdaptiveSerializer<String> serializer = new AdaptiveSerializer<>();
            long t0 = System.nanoTime();
            SerializerStatistics statistics;
            try (KafkaProducer<String, String> producer = producer(bootstrap, serializer)) {
                AtomicReference<Exception> failure = new AtomicReference<>();
                for (int i = 0; i < count; i++) {
                    String event = ExampleData.jsonEvent(i);
                    sent.add(event);
                    producer.send(new ProducerRecord<>(topic, event), (metadata, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
                }
                producer.flush();
                if (failure.get() != null) {
                    throw new IllegalStateException("a send failed", failure.get());
                }
                statistics = serializer.statistics();
            }
            long sendNanos = System.nanoTime() - t0;
            return new Result(sent, receive(consumer, count), statistics, sendNanos);
        }
    }

    private static List<String> receive(KafkaConsumer<String, String> consumer, int count) {
        List<String> received = new ArrayList<>(count);
        long deadline = System.nanoTime() + RECEIVE_TIMEOUT.toNanos();
        while (received.size() < count && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                received.add(r.value());
            }
        }
        return received;
    }

    /** Creates the topic with the cluster's default partitions and replication if it is missing. */
    private static List<TopicPartition> createTopic(String bootstrap, String topic)
            throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            try {
                admin.createTopics(Set.of(new NewTopic(topic, Optional.empty(), Optional.empty()))).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            return admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .collect(Collectors.toList());
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap, AdaptiveSerializer<String> serializer) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // the serializer finds the interceptor's acknowledgements through the client id
        props.put(ProducerConfig.CLIENT_ID_CONFIG, CLIENT_ID);
        props.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, AdaptiveProducerInterceptor.class.getName());
        // the serializer compresses each record; batch compression on top would only cost CPU
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(AdaptiveSerdeConfig.DELEGATE_SERIALIZER, StringSerializer.class.getName());
        // Kafka does not configure serializer instances: configure it here, with the same properties
        serializer.configure(props, false);
        return new KafkaProducer<>(props, new StringSerializer(), serializer);
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AdaptiveDeserializer.class.getName());
        props.put(AdaptiveSerdeConfig.DELEGATE_DESERIALIZER, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(props);
    }
}
