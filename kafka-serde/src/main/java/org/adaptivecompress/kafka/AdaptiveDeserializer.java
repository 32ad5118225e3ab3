package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.adaptivecompress.engine.ReceiverBudget;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Monitorable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the frames {@link AdaptiveSerializer} writes and hands the decompressed bytes to the
 * user's deserializer ({@code adaptive.delegate.deserializer} or
 * {@code adaptive.key.delegate.deserializer}). Needs no ladder: each frame names its codec.
 *
 * <p>{@code null} stays {@code null}. A value that is not a valid frame raises an
 * {@link AdaptiveFrameException} subclass naming the topic and the fault; with
 * {@code adaptive.legacy.passthrough=true}, values that do not start with the frame magic are
 * passed to the delegate unchanged, so a topic's old records stay readable.
 *
 * <p>A frame compressed with a dictionary is read with the file of that id among
 * {@code adaptive.zstd.dictionaries}, else with the dictionary of that id in
 * {@code adaptive.dictionary.topic}, fetched on first need (the caller waits, up to
 * {@code adaptive.dictionary.timeout.ms}) and kept in a bounded cache. Thread-safe.
 *
 * <p>What it read ({@link #statistics()}, {@link DeserializerMetrics}) appears in the consumer's
 * own metrics: it is {@link Monitorable} (KIP-877, kafka-clients 4.1 or newer).
 *
 * @param <T> the type the delegate deserializes
 */
public final class AdaptiveDeserializer<T> implements Deserializer<T>, Monitorable {

    private Deserializer<T> delegate;
    private ContextPool<RecordDecoder> decoders;
    private DictionaryResolver resolver;
    private boolean legacyPassthrough;
    private int maxValueBytes;
    private ReceiverBudget budget = ReceiverBudget.defaults();
    private final DecodeCounters counters = new DecodeCounters();
    private final PluginMetricsBinding<DeserializerStatistics> metrics =
            new PluginMetricsBinding<>(DeserializerMetrics.ALL);

    /** An instance for Kafka to create by class name and configure. */
    public AdaptiveDeserializer() {
        metrics.source(counters::snapshot);
    }

    /**
     * An instance around {@code delegate}, ready with every default (as when passed to
     * {@code new KafkaConsumer<>(props, keyDeserializer, valueDeserializer)}, which configures
     * neither); {@link #configure} configures the delegate with the same properties and replaces
     * the defaults. {@code adaptive.delegate.deserializer} is then not needed.
     */
    public AdaptiveDeserializer(Deserializer<T> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
        setUp(Map.of(), new AdaptiveSerdeConfig(Map.of()));
        metrics.source(counters::snapshot);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        AdaptiveSerdeConfig config = new AdaptiveSerdeConfig(configs);
        if (delegate == null) {
            delegate = config.delegate(isKey ? AdaptiveSerdeConfig.KEY_DELEGATE_DESERIALIZER
                    : AdaptiveSerdeConfig.DELEGATE_DESERIALIZER, Deserializer.class, "AdaptiveDeserializer", isKey);
        }
        delegate.configure(configs, isKey);
        releaseDecoding();
        setUp(configs, config);
    }

    /** Makes the dictionary look-up and decoder contexts that {@code configs} ask for. */
    private void setUp(Map<String, ?> configs, AdaptiveSerdeConfig config) {
        Map<Integer, ZstdDictionary> files = new HashMap<>();
        for (String file : config.dictionaryFiles()) {
            ZstdDictionary d = ZstdDictionary.load(file);
            files.put(d.id, d);
        }
        Map<Integer, ZstdDictionary> byId = Collections.unmodifiableMap(files);
        String dictionaryTopic = config.getString(AdaptiveSerdeConfig.DICTIONARY_TOPIC);
        int cacheSize = config.getInt(AdaptiveSerdeConfig.DICTIONARY_CACHE_SIZE);
        DictionaryStore store = dictionaryTopic.isEmpty() || !configs.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                ? null
                : new DictionaryStore(dictionaryTopic, DictionaryTopic.clientConfigs(configs, "dictionary-reader"),
                        config.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_BYTES), cacheSize);
        DictionaryResolver dictionaries = new DictionaryResolver(byId, store, dictionaryTopic,
                Duration.ofMillis(config.getLong(AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS)));
        resolver = dictionaries;
        decoders = new ContextPool<>(() -> new RecordDecoder(dictionaries, cacheSize));
        legacyPassthrough = config.getBoolean(AdaptiveSerdeConfig.LEGACY_PASSTHROUGH);
        maxValueBytes = config.getInt(AdaptiveSerdeConfig.MAX_VALUE_BYTES);
        budget = config.receiverBudget();
    }

    /**
     * Adds {@link DeserializerMetrics} to the consumer's metrics, tagged by Kafka with this
     * deserializer's class and whether it reads keys or values; the consumer calls it.
     */
    @Override
    public void withPluginMetrics(PluginMetrics pluginMetrics) {
        metrics.pluginMetrics(Objects.requireNonNull(pluginMetrics, "pluginMetrics is null"));
    }

    /** A snapshot of what this deserializer has read so far; safe from any thread. */
    public DeserializerStatistics statistics() {
        return counters.snapshot();
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return delegate().deserialize(topic, unframe(topic, data));
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        return delegate().deserialize(topic, headers, unframe(topic, data));
    }

    /**
     * The bytes a frame holds ({@code null} for {@code null}), or an unframed value itself when
     * legacy passthrough is on.
     *
     * @throws AdaptiveFrameException if {@code data} is not a valid frame
     */
    byte[] unframe(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (legacyPassthrough && (data.length == 0 || (data[0] & 0xFF) != RecordFrame.MAGIC)) {
            counters.unframed();
            return data;
        }
        RecordFrame.Header header = RecordFrame.parse(topic, data, maxValueBytes);
        if (!budget.accepts(header.codec)) {
            throw new AdaptiveFrameException(RecordFrame.where(topic) + "value is stored with " + header.codec.specName()
                    + ", which adaptive.receiver.budget=" + budget + " does not accept");
        }
        RecordDecoder decoder = decoders.take();
        byte[] value;
        try {
            value = decoder.decode(topic, data, header);
        } finally {
            decoders.give(decoder);
        }
        counters.decoded(header, data.length);
        return value;
    }

    private Deserializer<T> delegate() {
        if (delegate == null) {
            throw new IllegalStateException("AdaptiveDeserializer is not configured: call configure() first "
                    + "(KafkaConsumer does so when it creates the deserializer from its class name)");
        }
        return delegate;
    }

    @Override
    public void close() {
        if (delegate != null) {
            delegate.close();
        }
        releaseDecoding();
    }

    /** Closes what {@link #setUp} made: the dictionary topic's consumer and the contexts. */
    private void releaseDecoding() {
        if (resolver != null) {
            resolver.close();
            resolver = null;
        }
        if (decoders != null) {
            decoders.close();
            decoders = null;
        }
    }
}
