package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A producer whose principal the broker's authorizer denies the dictionary topic: it warns once,
 * compresses without a dictionary, and loses nothing.
 */
class DictionaryAclIT {

    private static final String DENIED = "denied-dictionaries";

    @RegisterExtension
    static final BrokerExtension broker = new BrokerExtension(Map.of(
            "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "allow.everyone.if.no.acl.found", "true"));

    @BeforeAll
    static void denyTheDictionaryTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            ResourcePattern topic = new ResourcePattern(ResourceType.TOPIC, DENIED, PatternType.LITERAL);
            List<AclBinding> deny = new ArrayList<>();
            for (AclOperation op : new AclOperation[] {AclOperation.CREATE, AclOperation.WRITE}) {
                deny.add(new AclBinding(topic, new AccessControlEntry("User:ANONYMOUS", "*", op, AclPermissionType.DENY)));
            }
            admin.createAcls(deny).all().get();
        }
    }

    @Test
    void aPrincipalDeniedTheDictionaryTopicGetsAWarningAndRecordsWithoutADictionary() throws Exception {
        String topic = "events-acl";
        KafkaClients.createTopic(broker.bootstrapServers(), topic);
        Properties p = KafkaClients.adaptiveProducer(broker.bootstrapServers(), "acl");
        p.put(AdaptiveSerdeConfig.DICTIONARY_TOPIC, DENIED);
        p.put(AdaptiveSerdeConfig.DICTIONARY_TRAINING_RECORDS, "200");
        p.put(AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS, "5000");
        p.put(AdaptiveSerdeConfig.FALLBACK_RUNG, "2");
        p.remove("interceptor.classes");
        AdaptiveSerializer<byte[]> values = new AdaptiveSerializer<>();
        values.configure(KafkaClients.asMap(p), false);
        byte[] data = DataKind.jsonEvents(1000 * 1024, 21);
        List<byte[]> sent = new ArrayList<>();
        try (LogCapture warnings = LogCapture.of(OnlineDictionaries.class, Level.WARN);
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), values)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            for (int i = 0; warnings.lines().isEmpty(); i = (i + 1) % 1000) {
                assertThat(System.nanoTime()).as("a warning within 60 s").isLessThan(deadline);
                byte[] v = Arrays.copyOfRange(data, i * 1024, (i + 1) * 1024);
                producer.send(new ProducerRecord<>(topic, v)).get();
                sent.add(v);
            }
            assertThat(warnings.lines()).hasSize(1).first().asString().contains(DENIED).contains("Authorization");
            assertThat(values.statistics().recordsWithDictionary()).isZero();
        }
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                new ByteArrayDeserializer(), new AdaptiveDeserializer<>(new ByteArrayDeserializer()))) {
            List<ConsumerRecord<byte[], byte[]>> read = KafkaClients.readAll(c, topic, sent.size(), Duration.ofSeconds(60));
            for (int i = 0; i < sent.size(); i++) {
                assertThat(read.get(i).value()).isEqualTo(sent.get(i));
            }
        }
    }
}
