package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

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
 * @param <T> the type the delegate deserializes
 */
public final class AdaptiveDeserializer<T> implements Deserializer<T> {

    private Deserializer<T> delegate;
    private ContextPool<RecordDecoder> decoders;
    private DictionaryResolver resolver;
    private boolean legacyPassthrough;
    private int maxValueBytes;

    /** An instance for Kafka to create by class name and configure. */
    public AdaptiveDeserializer() {}

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs, boolean isKey) {
        AdaptiveSerdeConfig config = new AdaptiveSerdeConfig(configs);
        String delegateKey = isKey ? AdaptiveSerdeConfig.KEY_DELEGATE_DESERIALIZER
                : AdaptiveSerdeConfig.DELEGATE_DESERIALIZER;
        Class<?> delegateClass = config.getClass(delegateKey);
        if (delegateClass == null) {
            throw new ConfigException(delegateKey + " is required when AdaptiveDeserializer is the "
                    + (isKey ? "key" : "value") + ".deserializer");
        }
        if (!Deserializer.class.isAssignableFrom(delegateClass)) {
            throw new ConfigException(delegateKey, delegateClass.getName(), "not a Deserializer");
        }
        delegate = Utils.newInstance((Class<Deserializer<T>>) delegateClass);
        delegate.configure(configs, isKey);
        Map<Integer, ZstdDictionary> dictionaries = new HashMap<>();
        for (String file : config.dictionaryFiles()) {
            ZstdDictionary d = ZstdDictionary.load(file);
            dictionaries.put(d.id, d);
        }
        Map<Integer, ZstdDictionary> byId = Collections.unmodifiableMap(dictionaries);
        String dictionaryTopic = config.getString(AdaptiveSerdeConfig.DICTIONARY_TOPIC);
        int cacheSize = config.getInt(AdaptiveSerdeConfig.DICTIONARY_CACHE_SIZE);
        DictionaryStore store = dictionaryTopic.isEmpty() || !configs.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                ? null
                : new DictionaryStore(dictionaryTopic, DictionaryTopic.clientConfigs(configs, "dictionary-reader"),
                        config.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_BYTES), cacheSize);
        resolver = new DictionaryResolver(byId, store, dictionaryTopic,
                Duration.ofMillis(config.getLong(AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS)));
        decoders = new ContextPool<>(() -> new RecordDecoder(resolver, cacheSize));
        legacyPassthrough = config.getBoolean(AdaptiveSerdeConfig.LEGACY_PASSTHROUGH);
        maxValueBytes = config.getInt(AdaptiveSerdeConfig.MAX_VALUE_BYTES);
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
            return data;
        }
        RecordFrame.Header header = RecordFrame.parse(topic, data, maxValueBytes);
        RecordDecoder decoder = decoders.take();
        try {
            return decoder.decode(topic, data, header);
        } finally {
            decoders.give(decoder);
        }
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
        if (resolver != null) {
            resolver.close();
        }
        if (decoders != null) {
            decoders.close();
        }
    }
}
