package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The dictionaries of the dictionary topic this client has read: a bounded least-recently-used
 * map by id, and the latest dictionary of each source topic. It reads on demand, from where it
 * stopped up to the end the topic has at that moment, with a consumer of its own (no group, no
 * offsets committed). Records that are not valid dictionaries are remembered as rejected, with
 * the reason. Thread-safe: one thread reads at a time, the others wait for it.
 */
final class DictionaryStore implements AutoCloseable {

    private static final long POLL_MILLIS = 100;

    private final String topic;
    private final Map<String, Object> consumerConfigs;
    private final int maxBytes;
    private final Map<Integer, ZstdDictionary> byId;
    private final Map<Integer, String> rejected;
    private final Map<String, ZstdDictionary> latestBySource;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private boolean evicted;
    private volatile boolean closed;

    /**
     * @param consumerConfigs where the cluster is and how to authenticate (see {@link DictionaryTopic#clientConfigs})
     * @param maxBytes largest dictionary accepted
     * @param capacity dictionaries kept; an evicted one is read again from the topic when needed
     */
    DictionaryStore(String topic, Map<String, Object> consumerConfigs, int maxBytes, int capacity) {
        this.topic = topic;
        this.consumerConfigs = consumerConfigs;
        this.maxBytes = maxBytes;
        this.byId = new LruMap<>(capacity, dropped -> evicted = true);
        this.rejected = new LruMap<>(capacity, reason -> { });
        this.latestBySource = new LruMap<>(capacity, d -> { });
    }

    /** Why a dictionary could not be had. */
    static final class Miss extends Exception {
        private static final long serialVersionUID = 1L;

        Miss(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * The dictionary with {@code id}, reading the topic for up to {@code timeout} if it is not
     * known yet.
     *
     * @throws Miss saying why if it was rejected, or not found before the timeout
     */
    synchronized ZstdDictionary find(int id, Duration timeout) throws Miss {
        ZstdDictionary d = byId.get(id);
        if (d != null) {
            return d;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean rescanned = false;
        while (true) {
            boolean exists;
            try {
                exists = catchUp(deadline);
            } catch (KafkaException e) {
                throw new Miss("reading it failed: " + e);
            }
            d = byId.get(id);
            if (d != null) {
                return d;
            }
            String reason = rejected.get(id);
            if (reason != null) {
                throw new Miss("its record there was rejected: " + reason);
            }
            if (exists && evicted && !rescanned) {
                // It may be one this store dropped to stay within its capacity.
                consumer.seekToBeginning(consumer.assignment());
                rescanned = true;
                continue;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new Miss((exists ? "not found there" : "the topic does not exist") + " (waited "
                        + timeout.toMillis() + " ms, adaptive.dictionary.timeout.ms)");
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Miss("interrupted while waiting for it");
            }
        }
    }

    /** The latest valid dictionary trained for {@code sourceTopic} read so far, or {@code null}. */
    synchronized ZstdDictionary latestFor(String sourceTopic) {
        return latestBySource.get(sourceTopic);
    }

    /**
     * Reads what the topic holds up to its current end, or until the deadline.
     *
     * @return false if the topic does not exist
     * @throws KafkaException if the cluster cannot be reached or refuses the read
     */
    synchronized boolean catchUp(long deadlineNanos) {
        if (closed) {
            throw new IllegalStateException("dictionary store for " + topic + " is closed");
        }
        if (consumer == null) {
            consumer = new KafkaConsumer<>(withReaderSettings(consumerConfigs),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        List<PartitionInfo> infos = consumer.partitionsFor(topic, remaining(deadlineNanos));
        if (infos == null || infos.isEmpty()) {
            return false;
        }
        Set<TopicPartition> partitions = new HashSet<>();
        for (PartitionInfo p : infos) {
            partitions.add(new TopicPartition(topic, p.partition()));
        }
        if (!partitions.equals(consumer.assignment())) {
            Set<TopicPartition> added = new HashSet<>(partitions);
            added.removeAll(consumer.assignment());
            consumer.assign(partitions);
            consumer.seekToBeginning(added);
        }
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, remaining(deadlineNanos));
        while (!reached(end) && System.nanoTime() < deadlineNanos) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(
                    Math.max(1, Math.min(POLL_MILLIS, remaining(deadlineNanos).toMillis()))))) {
                ingest(r);
            }
        }
        return true;
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void ingest(ConsumerRecord<byte[], byte[]> r) {
        long id = DictionaryTopic.id(r.key());
        if (id < 0 || r.value() == null) {
            return;
        }
        ZstdDictionary d;
        try {
            d = ZstdDictionary.of(r.value(), maxBytes);
        } catch (IllegalArgumentException e) {
            rejected.put((int) id, e.getMessage());
            return;
        }
        if (Integer.toUnsignedLong(d.id) != id) {
            rejected.put((int) id, "the record's key names id " + id + " but the dictionary's own id is " + d.idString());
            return;
        }
        rejected.remove(d.id);
        byId.put(d.id, d);
        String source = DictionaryTopic.sourceTopic(r.headers());
        if (source != null) {
            latestBySource.put(source, d);
        }
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    private static Map<String, Object> withReaderSettings(Map<String, Object> configs) {
        Map<String, Object> c = new java.util.HashMap<>(configs);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Asking for a missing topic must not create it uncompacted.
        c.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return c;
    }

    /** Wakes a thread reading the topic (it fails with a {@link Miss}), then closes the consumer. */
    @Override
    public void close() {
        closed = true;
        KafkaConsumer<byte[], byte[]> reading = consumer;
        if (reading != null) {
            reading.wakeup();
        }
        synchronized (this) {
            if (consumer != null) {
                consumer.close(Duration.ofSeconds(5));
                consumer = null;
            }
        }
    }
}
