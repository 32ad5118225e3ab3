package org.adaptivecompress.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LevelController;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Monitorable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A serializer that lets the user's own serializer (the delegate, {@code adaptive.delegate.serializer}
 * or {@code adaptive.key.delegate.serializer}) encode each value, then compresses the bytes into
 * a compact record frame at the rung the core controller picks from the producer's backlog.
 *
 * <p>The backlog is the bytes this serializer returned that the broker has not acknowledged yet,
 * which {@link AdaptiveProducerInterceptor} reports (both are linked by {@code client.id}). Without
 * the interceptor in {@code interceptor.classes}, every record uses {@code adaptive.fallback.rung}
 * and {@link SerializerStatistics#adaptive()} is false.
 *
 * <p>Its zstd rungs use a dictionary: the first of {@code adaptive.zstd.dictionaries} if set, else
 * one it trains per topic from the values it sees, publishes to {@code adaptive.dictionary.topic}
 * and uses once the broker has stored it (see {@code docs/kafka.md}); training runs on a thread
 * of its own, never the caller's.
 *
 * <p>Its figures ({@link SerializerMetrics}) appear in the producer's own metrics, as
 * {@code KafkaProducer.metrics()}, JMX and Micrometer's {@code KafkaClientMetrics} show them: it
 * is {@link Monitorable} (KIP-877), which is why the module needs kafka-clients 4.1 or newer.
 *
 * <p>{@code null} stays {@code null}, so tombstones survive. Thread-safe: {@code KafkaProducer.send}
 * may be called from many threads; each takes pooled codec contexts, the rung decision is shared.
 *
 * @param <T> the type the delegate serializes
 */
public final class AdaptiveSerializer<T> implements Serializer<T>, Monitorable {

    /** Warns once per configured serializer that cannot adapt. */
    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveSerializer.class);

    private final PluginMetricsBinding<SerializerStatistics> metrics = new PluginMetricsBinding<>(SerializerMetrics.ALL);

    private Serializer<T> delegate;
    private RungDecider decider;
    private InFlightGauge gauge;
    private ContextPool<RecordEncoder> encoders;
    private ZstdDictionary fileDictionary;
    private OnlineDictionaries onlineDictionaries;
    private final LongAdder dictionaryRecords = new LongAdder();
    private int maxDictionaryValueBytes;
    private int minCompressBytes;
    private String clientId;

    /** An instance for Kafka to create by class name and configure. */
    public AdaptiveSerializer() {}

    /**
     * An instance around {@code delegate}, ready with every default (as when passed to
     * {@code new KafkaProducer<>(props, keySerializer, valueSerializer)}, which configures
     * neither); {@link #configure} configures the delegate with the same properties and replaces
     * the defaults. {@code adaptive.delegate.serializer} is then not needed.
     */
    public AdaptiveSerializer(Serializer<T> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
        setUp(Map.of(), new AdaptiveSerdeConfig(Map.of()), false, false);
        metrics.source(this::statistics);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        AdaptiveSerdeConfig config = new AdaptiveSerdeConfig(configs);
        if (delegate == null) {
            delegate = config.delegate(isKey ? AdaptiveSerdeConfig.KEY_DELEGATE_SERIALIZER
                    : AdaptiveSerdeConfig.DELEGATE_SERIALIZER, Serializer.class, "AdaptiveSerializer", isKey);
        }
        delegate.configure(configs, isKey);
        releaseFraming();
        setUp(configs, config, isKey, true);
        metrics.source(this::statistics);
    }

    /**
     * Adds {@link SerializerMetrics} to the producer's metrics, tagged by Kafka with this
     * serializer's class and whether it serializes keys or values; the producer calls it.
     */
    @Override
    public void withPluginMetrics(PluginMetrics pluginMetrics) {
        metrics.pluginMetrics(Objects.requireNonNull(pluginMetrics, "pluginMetrics is null"));
    }

    /** Makes the codec contexts, dictionaries and rung decision that {@code configs} ask for. */
    private void setUp(Map<String, ?> configs, AdaptiveSerdeConfig config, boolean isKey, boolean warnIfNotAdapting) {
        Ladder ladder = config.ladder();
        LevelController controller = config.controller(); // checked even where it will not be used
        List<String> dictionaryFiles = config.dictionaryFiles();
        fileDictionary = dictionaryFiles.isEmpty() ? null : ZstdDictionary.load(dictionaryFiles.get(0));
        Object id = configs.get(ProducerConfig.CLIENT_ID_CONFIG);
        onlineDictionaries = trainsDictionaries(config, configs)
                ? onlineDictionaries(config, configs, id == null ? (isKey ? "keys" : "values") : id + (isKey ? "-keys" : ""))
                : null;
        int dictionaries = onlineDictionaries == null ? 1 : config.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_TOPICS) + 1;
        encoders = new ContextPool<>(() -> new RecordEncoder(ladder, dictionaries));
        minCompressBytes = config.getInt(AdaptiveSerdeConfig.MIN_COMPRESS_BYTES);
        maxDictionaryValueBytes = config.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_VALUE_BYTES);

        boolean intercepted = interceptorConfigured(configs);
        boolean linked = id != null && !id.toString().isEmpty() && intercepted;
        gauge = null;
        if (!linked && warnIfNotAdapting) {
            LOG.warn("AdaptiveSerializer ({}) does not adapt: {}; every record uses {} (adaptive.fallback.rung)",
                    isKey ? "keys" : "values",
                    intercepted ? "the producer has no client.id to link it to "
                            + AdaptiveProducerInterceptor.class.getSimpleName()
                            : AdaptiveProducerInterceptor.class.getName() + " is not in interceptor.classes",
                    ladder.rung(config.fallbackRung()));
        }
        if (linked) {
            clientId = id.toString();
            InFlightRegistry.Entry entry = InFlightRegistry.acquire(clientId);
            if (isKey) {
                entry.keysTracked = true;
            } else {
                entry.valuesTracked = true;
            }
            gauge = entry.gauge(isKey);
        }
        decider = new RungDecider(ladder,
                linked ? controller : null,
                config.decisionListener(), gauge, config.fallbackRung(),
                config.getInt(AdaptiveSerdeConfig.OBSERVATION_RECORDS),
                config.getInt(AdaptiveSerdeConfig.OBSERVATION_BYTES),
                lingerMillis(configs));
    }

    /** The producer's {@code linger.ms}, or Kafka's default for it. */
    private static long lingerMillis(Map<String, ?> configs) {
        Object linger = configs.get(ProducerConfig.LINGER_MS_CONFIG);
        if (linger == null) {
            linger = ProducerConfig.configDef().defaultValues().get(ProducerConfig.LINGER_MS_CONFIG);
        }
        return ((Number) ConfigDef.parseType(ProducerConfig.LINGER_MS_CONFIG, linger, ConfigDef.Type.LONG)).longValue();
    }

    /** Dictionary files configured by hand take precedence; training needs a cluster to publish to. */
    private boolean trainsDictionaries(AdaptiveSerdeConfig config, Map<String, ?> configs) {
        return fileDictionary == null && config.getBoolean(AdaptiveSerdeConfig.DICTIONARY_TRAINING)
                && !config.getString(AdaptiveSerdeConfig.DICTIONARY_TOPIC).isEmpty()
                && configs.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) != null;
    }

    private static OnlineDictionaries onlineDictionaries(AdaptiveSerdeConfig config, Map<String, ?> configs,
            String name) {
        OnlineDictionaries.DictionarySettings settings = new OnlineDictionaries.DictionarySettings(config);
        DictionaryStore store = new DictionaryStore(settings.topic,
                DictionaryTopic.clientConfigs(configs, "dictionary-reader"), settings.maxBytes,
                config.getInt(AdaptiveSerdeConfig.DICTIONARY_CACHE_SIZE));
        DictionaryPublisher publisher = new DictionaryPublisher(settings.topic,
                DictionaryTopic.clientConfigs(configs, "dictionary-writer"), settings.timeout);
        return new OnlineDictionaries(settings, store, publisher, name);
    }

    private static boolean interceptorConfigured(Map<String, ?> configs) {
        Object classes = configs.get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
        String name = AdaptiveProducerInterceptor.class.getName();
        if (classes instanceof Collection) {
            for (Object c : (Collection<?>) classes) {
                if (c == AdaptiveProducerInterceptor.class || name.equals(String.valueOf(c).trim())) {
                    return true;
                }
            }
            return false;
        }
        if (classes instanceof String) {
            for (String c : ((String) classes).split(",")) {
                if (name.equals(c.trim())) {
                    return true;
                }
            }
        }
        return classes == AdaptiveProducerInterceptor.class;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return frame(topic, delegate().serialize(topic, data));
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        return frame(topic, delegate().serialize(topic, headers, data));
    }

    private byte[] frame(String topic, byte[] value) {
        if (value == null) {
            return null;
        }
        long start = System.nanoTime();
        ZstdDictionary dictionary = dictionaryFor(topic, value);
        RecordEncoder encoder = encoders.take();
        byte[] frame;
        int storedRung;
        boolean incompressible;
        try {
            frame = encoder.encode(value, decider.rung(), minCompressBytes, dictionary);
            storedRung = encoder.lastRung;
            incompressible = encoder.lastIncompressible;
        } finally {
            encoders.give(encoder);
        }
        if (gauge != null) {
            gauge.added(frame.length);
        }
        if ((frame[1] & RecordFrame.FLAG_DICTIONARY) != 0) {
            dictionaryRecords.increment();
        }
        decider.recorded(storedRung, incompressible, value.length, frame.length, System.nanoTime() - start);
        return frame;
    }

    /**
     * The dictionary for {@code value}: the file's, or the topic's trained one; none for values
     * over {@code adaptive.dictionary.max.value.bytes}.
     */
    private ZstdDictionary dictionaryFor(String topic, byte[] value) {
        if (value.length > maxDictionaryValueBytes) {
            return null;
        }
        return onlineDictionaries != null ? onlineDictionaries.dictionaryFor(topic, value) : fileDictionary;
    }

    /** A snapshot of what this serializer has done so far; safe from any thread. */
    public SerializerStatistics statistics() {
        if (decider == null) {
            throw new IllegalStateException("AdaptiveSerializer is not configured");
        }
        SerializerStatistics statistics = decider.statistics();
        return statistics.withDictionaries(dictionaryRecords.sum(),
                onlineDictionaries == null ? Map.of() : onlineDictionaries.liveIds());
    }

    private Serializer<T> delegate() {
        if (delegate == null) {
            throw new IllegalStateException("AdaptiveSerializer is not configured: call configure() first "
                    + "(KafkaProducer does so when it creates the serializer from its class name)");
        }
        return delegate;
    }

    @Override
    public void close() {
        if (delegate != null) {
            delegate.close();
        }
        releaseFraming();
    }

    /** Closes what {@link #setUp} made: its dictionary thread and clients, its contexts, its link. */
    private void releaseFraming() {
        if (onlineDictionaries != null) {
            onlineDictionaries.close();
            onlineDictionaries = null;
        }
        if (encoders != null) {
            encoders.close();
            encoders = null;
        }
        if (clientId != null) {
            InFlightRegistry.release(clientId);
            clientId = null;
        }
    }
}
