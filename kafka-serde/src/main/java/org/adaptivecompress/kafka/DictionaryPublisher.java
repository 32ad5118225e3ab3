package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes dictionaries to the dictionary topic and waits for the broker to acknowledge each, so a
 * record is never compressed with a dictionary the cluster does not hold. Creates the topic when
 * it is missing (compacted, one partition, the cluster's default replication). Its clients are
 * made on first use. Not thread-safe: one background thread publishes.
 */
final class DictionaryPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DictionaryPublisher.class);

    private final String topic;
    private final Map<String, Object> clientConfigs;
    private final Duration timeout;
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private boolean checkedPolicy;

    DictionaryPublisher(String topic, Map<String, Object> clientConfigs, Duration timeout) {
        this.topic = topic;
        this.clientConfigs = clientConfigs;
        this.timeout = timeout;
    }

    /** Why a dictionary could not be published. */
    static final class PublishException extends Exception {
        private static final long serialVersionUID = 1L;

        PublishException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Publishes {@code d}, trained on {@code sourceTopic}'s values, creating the topic first if
     * it is missing; returns once the broker has acknowledged it.
     *
     * @throws PublishException if the topic cannot be created or written, or the broker did not
     *     acknowledge within the timeout
     */
    void publish(String sourceTopic, ZstdDictionary d) throws PublishException, InterruptedException {
        ensureTopic();
        try {
            producer().send(DictionaryTopic.record(topic, sourceTopic, d)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new PublishException("cannot write dictionary " + d.idString() + " to topic " + topic + ": "
                    + e.getCause(), e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw new PublishException("cannot write dictionary " + d.idString() + " to topic " + topic + ": " + e, e);
        }
    }

    /**
     * Whether the dictionary topic exists now.
     *
     * @throws PublishException if the cluster cannot say within the timeout
     */
    boolean topicExists() throws PublishException, InterruptedException {
        try {
            admin().describeTopics(Collections.singleton(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw new PublishException("cannot describe topic " + topic + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw new PublishException("cannot describe topic " + topic + ": " + e, e);
        }
    }

    private void ensureTopic() throws PublishException, InterruptedException {
        if (topicExists()) {
            warnUnlessCompacted();
            return;
        }
        NewTopic newTopic = new NewTopic(topic, Optional.of(1), Optional.empty())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        try {
            admin().createTopics(Collections.singleton(newTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("created compacted dictionary topic {}", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new PublishException("cannot create dictionary topic " + topic + ": " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException | KafkaException e) {
            throw new PublishException("cannot create dictionary topic " + topic + ": " + e, e);
        }
    }

    /** A topic that deletes old records may drop a dictionary that records still name. */
    private void warnUnlessCompacted() throws InterruptedException {
        if (checkedPolicy) {
            return;
        }
        checkedPolicy = true;
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin().describeConfigs(Collections.singleton(resource)).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(resource);
            String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
            if (!policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT) || policy.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
                LOG.warn("dictionary topic {} has cleanup.policy={}: it may delete dictionaries that records still "
                        + "name; make it compact", topic, policy);
            }
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            LOG.debug("cannot read the cleanup policy of dictionary topic {}", topic, e);
        }
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(clientConfigs);
        }
        return admin;
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Map<String, Object> c = new HashMap<>(clientConfigs);
            c.put(ProducerConfig.ACKS_CONFIG, "all");
            // Idempotence would need the IdempotentWrite permission for one record per dictionary.
            c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
            c.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
            c.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            producer = new KafkaProducer<>(c, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
