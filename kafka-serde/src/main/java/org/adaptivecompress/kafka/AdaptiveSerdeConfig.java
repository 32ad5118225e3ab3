package org.adaptivecompress.kafka;

import java.util.List;
import java.util.Map;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.engine.ReceiverBudget;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

/**
 * Every configuration key of {@link AdaptiveSerializer}, {@link AdaptiveDeserializer} and
 * {@link AdaptiveProducerInterceptor}, defined once with type, default, validator and doc string.
 * The keys go in the producer or consumer properties next to Kafka's own; {@code docs/kafka.md}
 * holds {@link #markdownTable()} verbatim (a test keeps the two equal).
 */
public final class AdaptiveSerdeConfig extends AbstractConfig {

    /** Delegate for values. */
    public static final String DELEGATE_SERIALIZER = "adaptive.delegate.serializer";
    /** Delegate for keys. */
    public static final String KEY_DELEGATE_SERIALIZER = "adaptive.key.delegate.serializer";
    /** Delegate for values. */
    public static final String DELEGATE_DESERIALIZER = "adaptive.delegate.deserializer";
    /** Delegate for keys. */
    public static final String KEY_DELEGATE_DESERIALIZER = "adaptive.key.delegate.deserializer";
    /** The ladder spec. */
    public static final String LADDER = "adaptive.ladder";
    /** The controller name. */
    public static final String CONTROLLER = "adaptive.controller";
    /** What the controller optimises. */
    public static final String OBJECTIVE = "adaptive.objective";
    /** What consumers decode: the serializer's ladder is narrowed to it, the deserializer refuses the rest. */
    public static final String RECEIVER_BUDGET = "adaptive.receiver.budget";
    /** The rung used without the interceptor. */
    public static final String FALLBACK_RUNG = "adaptive.fallback.rung";
    /** Values shorter than this go raw. */
    public static final String MIN_COMPRESS_BYTES = "adaptive.min.compress.bytes";
    /** Records per controller decision. */
    public static final String OBSERVATION_RECORDS = "adaptive.observation.records";
    /** Serialized bytes per controller decision. */
    public static final String OBSERVATION_BYTES = "adaptive.observation.bytes";
    /** Dictionary files. */
    public static final String ZSTD_DICTIONARIES = "adaptive.zstd.dictionaries";
    /** Read unframed values as they are. */
    public static final String LEGACY_PASSTHROUGH = "adaptive.legacy.passthrough";
    /** Largest uncompressed value the deserializer accepts. */
    public static final String MAX_VALUE_BYTES = "adaptive.max.value.bytes";
    /** See {@link #configDef()}. */
    public static final String DECISION_LISTENER = "adaptive.decision.listener";
    /** Topic that stores trained dictionaries; empty turns online dictionaries off. */
    public static final String DICTIONARY_TOPIC = "adaptive.dictionary.topic";
    /** Whether serializers train dictionaries. */
    public static final String DICTIONARY_TRAINING = "adaptive.dictionary.training";
    /** Sampled values that trigger training. */
    public static final String DICTIONARY_TRAINING_RECORDS = "adaptive.dictionary.training.records";
    /** Sampled bytes that trigger training. */
    public static final String DICTIONARY_TRAINING_BYTES = "adaptive.dictionary.training.bytes";
    /** Values longer than this go without a dictionary. */
    public static final String DICTIONARY_MAX_VALUE_BYTES = "adaptive.dictionary.max.value.bytes";
    /** Size of trained dictionaries. */
    public static final String DICTIONARY_SIZE = "adaptive.dictionary.size";
    /** Gain a trained dictionary must reach to be used. */
    public static final String DICTIONARY_MIN_GAIN = "adaptive.dictionary.min.gain";
    /** Share of its gain a dictionary may lose before it is retrained. */
    public static final String DICTIONARY_RETRAIN_GAIN_LOSS = "adaptive.dictionary.retrain.gain.loss";
    /** How often live dictionaries are measured. */
    public static final String DICTIONARY_CHECK_INTERVAL_MS = "adaptive.dictionary.check.interval.ms";
    /** Topics per serializer that get a dictionary. */
    public static final String DICTIONARY_MAX_TOPICS = "adaptive.dictionary.max.topics";
    /** Largest dictionary accepted. */
    public static final String DICTIONARY_MAX_BYTES = "adaptive.dictionary.max.bytes";
    /** Dictionaries a deserializer keeps in memory. */
    public static final String DICTIONARY_CACHE_SIZE = "adaptive.dictionary.cache.size";
    /** Bounded wait for the dictionary topic. */
    public static final String DICTIONARY_TIMEOUT_MS = "adaptive.dictionary.timeout.ms";
    /** Prefix of settings for the dictionary topic's own clients. */
    public static final String DICTIONARY_CLIENT_PREFIX = "adaptive.dictionary.client.";

    /** Where trained dictionaries go unless {@link #DICTIONARY_TOPIC} says otherwise. */
    public static final String DEFAULT_DICTIONARY_TOPIC = "_adaptive_dictionaries";

    /**
     * The core's default ladder without {@code xz:6}: on records of a few KB zstd:19 is already
     * near the ratio ceiling, and the top rung should stay cheap enough per record that a
     * throttled producer thread is not held up by compression alone.
     */
    public static final String DEFAULT_LADDER = "raw,lz4,zstd:1,zstd:3,zstd:7,zstd:12,zstd:19";

    private static final ConfigDef CONFIG = new ConfigDef()
            .define(DELEGATE_SERIALIZER, Type.CLASS, null, Importance.HIGH,
                    "Serializer that encodes record values before AdaptiveSerializer compresses them (the class "
                            + "that would otherwise be value.serializer). Required when AdaptiveSerializer is the "
                            + "value.serializer; it is configured with the same properties.")
            .define(KEY_DELEGATE_SERIALIZER, Type.CLASS, null, Importance.MEDIUM,
                    "Serializer that encodes record keys when AdaptiveSerializer is the key.serializer.")
            .define(DELEGATE_DESERIALIZER, Type.CLASS, null, Importance.HIGH,
                    "Deserializer that decodes record values after AdaptiveDeserializer decompresses them. "
                            + "Required when AdaptiveDeserializer is the value.deserializer.")
            .define(KEY_DELEGATE_DESERIALIZER, Type.CLASS, null, Importance.MEDIUM,
                    "Deserializer that decodes record keys when AdaptiveDeserializer is the key.deserializer.")
            .define(LADDER, Type.STRING, DEFAULT_LADDER, new LadderValidator(), Importance.MEDIUM,
                    "Rungs the serializer may compress with, fastest first, starting with raw (core ladder spec, "
                            + "e.g. raw,lz4,zstd:3,zstd:19). The decoder needs no ladder: each frame names its codec.")
            .define(CONTROLLER, Type.STRING, LevelControllers.DEFAULT_NAME, new ControllerValidator(),
                    Importance.MEDIUM,
                    "Rule that picks the rung from each rung's measured speed and ratio and from the producer's "
                            + "backlog while its records wait longer than its batching and round trip do: "
                            + "model (the rung forecast to deliver the most bytes per second), adoc (AdOC's rule: "
                            + "climb while the backlog grows beyond 80 KiB, halve when it shrinks) or fixed:N "
                            + "(always rung N).")
            .define(OBJECTIVE, Type.STRING, "time", new ObjectiveValidator(), Importance.LOW,
                    "What the model controller optimises: time (the most bytes per second); cpu-budget:S (the "
                            + "same among rungs whose compression uses at most S cores, e.g. 0.3); or "
                            + "cost:egress=E,cpu=C[,decode=D][,floor=R] (the least money at E per GB sent, C per "
                            + "CPU-second of compression and D per CPU-second of the consumers' decoding, among rungs "
                            + "delivering at least R, e.g. 100mbit). Other controllers take time only.")
            .define(RECEIVER_BUDGET, Type.STRING, "any", new BudgetValidator(), Importance.MEDIUM,
                    "What the topic's consumers decode, as a receiver budget: the codecs they accept, each up to a "
                            + "level (e.g. lz4,zstd:9 for consumers that do not decode xz nor zstd above 9), or any. "
                            + "Set the same value on producers and consumers: the serializer compresses only with "
                            + "the rungs of adaptive.ladder inside it (a fixed:N controller or adaptive.fallback.rung "
                            + "that names a rung outside it moves down to the nearest rung inside), and the "
                            + "deserializer raises AdaptiveFrameException for a value stored with a codec outside "
                            + "it. Record frames carry no level and no history, so the deserializer checks codecs "
                            + "only, and window=, block= and memory= do not apply.")
            .define(FALLBACK_RUNG, Type.INT, 1, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
                    "Rung used for every record when AdaptiveProducerInterceptor is not in interceptor.classes: "
                            + "without it the serializer cannot see acknowledgements, so it does not adapt. "
                            + "Clamped to the ladder's top.")
            .define(MIN_COMPRESS_BYTES, Type.INT, 64, ConfigDef.Range.atLeast(0), Importance.LOW,
                    "Values shorter than this many bytes are stored raw without trying a codec: below it "
                            + "codec headers cost about what compression saves.")
            .define(OBSERVATION_RECORDS, Type.INT, 32, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "The controller decides after this many records (or observation.bytes, whichever comes "
                            + "first), the records being its block.")
            .define(OBSERVATION_BYTES, Type.INT, 64 * 1024, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "The controller decides after this many serialized bytes (or observation.records).")
            .define(ZSTD_DICTIONARIES, Type.LIST, "", Importance.MEDIUM,
                    "Zstd dictionary files (trained by org.adaptivecompress.kafka.DictionaryTrainer). The "
                            + "serializer compresses its zstd rungs with the first; the deserializer loads all "
                            + "and picks by the dictionary id each frame carries, so a new dictionary can be "
                            + "rolled out by listing it first on producers after consumers know it.")
            .define(LEGACY_PASSTHROUGH, Type.BOOLEAN, false, Importance.MEDIUM,
                    "If true, the deserializer hands values that do not start with the frame magic (0xAC) to "
                            + "the delegate unchanged, so a topic can switch to AdaptiveSerializer without "
                            + "downtime. If false, such values raise UnframedValueException.")
            .define(MAX_VALUE_BYTES, Type.INT, 64 * 1024 * 1024, ConfigDef.Range.atLeast(0), Importance.LOW,
                    "Largest uncompressed length the deserializer accepts; a frame declaring more raises "
                            + "OversizedValueException before anything is allocated.")
            .define(DECISION_LISTENER, Type.CLASS, null, Importance.LOW,
                    "Class implementing org.adaptivecompress.control.DecisionListener, with a public no-argument "
                            + "constructor, told every decision of the serializer's controller (the rung, the rule "
                            + "that chose it and what it assumed of the link) on the producer thread that made it.")
            .define(DICTIONARY_TOPIC, Type.STRING, DEFAULT_DICTIONARY_TOPIC, Importance.MEDIUM,
                    "Compacted topic that stores the dictionaries serializers train, keyed by dictionary id. "
                            + "Serializers create it when they first publish (one partition, the cluster's default "
                            + "replication); deserializers fetch from it any dictionary id they do not know. Set the "
                            + "same name on producers and consumers; empty turns online dictionaries off.")
            .define(DICTIONARY_TRAINING, Type.BOOLEAN, true, Importance.MEDIUM,
                    "If true, the serializer samples each topic's values, trains a zstd dictionary off the "
                            + "producer's threads, publishes it to adaptive.dictionary.topic and, once the broker "
                            + "has acknowledged it, compresses that topic's zstd rungs with it. Off when "
                            + "adaptive.zstd.dictionaries is set, the topic is empty, or bootstrap.servers is missing.")
            .define(DICTIONARY_MAX_VALUE_BYTES, Type.INT, 8 * 1024, ConfigDef.Range.atLeast(0), Importance.LOW,
                    "Values longer than this are compressed without a dictionary (from a file or trained) and "
                            + "are not sampled for training: above 8 KiB zstd copies a dictionary's tables for "
                            + "every value instead of referring to them, which costs more time than it saves "
                            + "bytes on a fast network. Raise it where the link, not the producer's CPU, limits "
                            + "a topic of larger values.")
            .define(DICTIONARY_TRAINING_RECORDS, Type.INT, 2000, ConfigDef.Range.atLeast(DictionaryTraining.MIN_SAMPLES),
                    Importance.LOW,
                    "A topic's dictionary is trained once this many values (or adaptive.dictionary.training.bytes) "
                            + "are sampled. Values shorter than adaptive.min.compress.bytes or longer than "
                            + "adaptive.dictionary.max.value.bytes are not.")
            .define(DICTIONARY_TRAINING_BYTES, Type.INT, 1 << 20, ConfigDef.Range.atLeast(1024), Importance.LOW,
                    "A topic's dictionary is trained once this many bytes of values (or "
                            + "adaptive.dictionary.training.records values) are sampled; also the most each topic's "
                            + "sampler holds. zstd advises samples of about 100x the dictionary's size.")
            .define(DICTIONARY_SIZE, Type.INT, 16 * 1024, ConfigDef.Range.between(256, 1 << 20), Importance.LOW,
                    "Size of the dictionaries the serializer trains, in bytes.")
            .define(DICTIONARY_MIN_GAIN, Type.DOUBLE, 1.1, ConfigDef.Range.atLeast(1.0), Importance.LOW,
                    "A trained dictionary is published and used only if zstd:3 compresses values it was not "
                            + "trained on this many times smaller with it than without.")
            .define(DICTIONARY_RETRAIN_GAIN_LOSS, Type.DOUBLE, 0.25, ConfigDef.Range.between(0.0, 1.0),
                    Importance.LOW,
                    "A live dictionary is retrained once its gain over no dictionary (gain - 1) on recent values "
                            + "has fallen by more than this share of what it was at training, or below "
                            + "adaptive.dictionary.min.gain: the data's shape changed.")
            .define(DICTIONARY_CHECK_INTERVAL_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(10), Importance.LOW,
                    "How often the serializer measures each live dictionary's gain and checks that the dictionary "
                            + "topic still exists (it publishes its dictionaries again if not); also the wait "
                            + "before trying again after a dictionary did not gain enough.")
            .define(DICTIONARY_MAX_TOPICS, Type.INT, 8, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "Topics per serializer that get a trained dictionary, so the dictionaries and samples it "
                            + "holds stay bounded (each topic samples up to adaptive.dictionary.training.bytes).")
            .define(DICTIONARY_MAX_BYTES, Type.INT, 1 << 20, ConfigDef.Range.atLeast(256), Importance.LOW,
                    "Largest dictionary the deserializer accepts from the dictionary topic; a larger one is "
                            + "rejected, as is one zstd cannot load or whose id does not match its key.")
            .define(DICTIONARY_CACHE_SIZE, Type.INT, 64, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "Dictionaries a deserializer keeps in memory; one evicted is read from the topic again "
                            + "when a record names it.")
            .define(DICTIONARY_TIMEOUT_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                    "How long a deserializer waits for a dictionary id it does not know to appear in the "
                            + "dictionary topic before raising DictionaryUnavailableException, and how long a "
                            + "serializer waits for the topic to be created or a dictionary acknowledged.");

    /** Parses and validates {@code originals}; keys not defined here are ignored. */
    public AdaptiveSerdeConfig(Map<?, ?> originals) {
        super(CONFIG, originals, false);
    }

    /** The definition of every key, e.g. for {@link ConfigDef#toHtml()}. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /** What the consumers decode ({@link #RECEIVER_BUDGET}). */
    public ReceiverBudget receiverBudget() {
        return ReceiverBudget.parse(getString(RECEIVER_BUDGET));
    }

    /** The parsed ladder, narrowed to the receiver budget. */
    public Ladder ladder() {
        return receiverBudget().admitted(Ladder.parse(getString(LADDER)));
    }

    /** The fallback rung, moved down to the nearest rung inside the receiver budget and clamped to the ladder. */
    public int fallbackRung() {
        return receiverBudget().admittedRung(Ladder.parse(getString(LADDER)), getInt(FALLBACK_RUNG));
    }

    /**
     * A new controller as {@code adaptive.controller} names it, pursuing {@code adaptive.objective}.
     *
     * @throws ConfigException if the controller cannot pursue the objective
     */
    public LevelController controller() {
        String name = getString(CONTROLLER);
        int fixed = LevelControllers.fixedRung(name);
        if (fixed >= 0) {
            name = "fixed:" + receiverBudget().admittedRung(Ladder.parse(getString(LADDER)), fixed);
        }
        LevelController c = LevelControllers.byName(name).get();
        try {
            c.objective(Objective.parse(getString(OBJECTIVE)));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(OBJECTIVE, getString(OBJECTIVE), e.getMessage() + " (" + CONTROLLER + "="
                    + getString(CONTROLLER) + ")");
        }
        return c;
    }

    /**
     * A new instance of the delegate class named by {@code key}.
     *
     * @param type {@code Serializer} or {@code Deserializer}
     * @param owner the adaptive class that needs it, for the message
     * @throws ConfigException if the key is unset or names a class of another type
     */
    @SuppressWarnings("unchecked")
    <D> D delegate(String key, Class<? super D> type, String owner, boolean isKey) {
        Class<?> delegateClass = getClass(key);
        if (delegateClass == null) {
            throw new ConfigException(key + " is required when " + owner + " is the " + (isKey ? "key" : "value") + "."
                    + type.getSimpleName().toLowerCase(java.util.Locale.ROOT) + " (or pass the delegate to its constructor)");
        }
        if (!type.isAssignableFrom(delegateClass)) {
            throw new ConfigException(key, delegateClass.getName(), "not a " + type.getSimpleName());
        }
        return (D) Utils.newInstance(delegateClass);
    }

    /** A new instance of the configured {@link #DECISION_LISTENER}, or {@link DecisionListener#NONE}. */
    public DecisionListener decisionListener() {
        Class<?> type = getClass(DECISION_LISTENER);
        if (type == null) {
            return DecisionListener.NONE;
        }
        if (!DecisionListener.class.isAssignableFrom(type)) {
            throw new ConfigException(DECISION_LISTENER, type.getName(), "not a " + DecisionListener.class.getName());
        }
        return Utils.newInstance(type.asSubclass(DecisionListener.class));
    }

    /** The configured dictionary files, first one used by the serializer. */
    public List<String> dictionaryFiles() {
        return getList(ZSTD_DICTIONARIES);
    }

    /**
     * The reference table of every key as Markdown, in definition order; {@code docs/kafka.md}
     * contains exactly this text.
     */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder();
        sb.append("| Key | Type | Default | Valid values | Importance | Description |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : CONFIG.configKeys().values()) {
            String def = key.hasDefault()
                    ? (key.defaultValue == null ? "null" : ConfigDef.convertToString(key.defaultValue, key.type))
                    : "(required)";
            sb.append("| `").append(key.name).append("` | ").append(key.type.name().toLowerCase(java.util.Locale.ROOT))
                    .append(" | ").append(def.isEmpty() ? "\"\"" : "`" + def + "`")
                    .append(" | ").append(key.validator == null ? "" : key.validator.toString())
                    .append(" | ").append(key.importance.name().toLowerCase(java.util.Locale.ROOT))
                    .append(" | ").append(key.documentation).append(" |\n");
        }
        return sb.toString();
    }

    /** Accepts ladder specs that {@link Ladder#parse} accepts. */
    private static final class LadderValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                Ladder.parse((String) value);
            } catch (RuntimeException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "a ladder spec starting with raw";
        }
    }

    /** Accepts receiver budgets that {@link ReceiverBudget#parse} accepts. */
    private static final class BudgetValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                ReceiverBudget.parse((String) value);
            } catch (RuntimeException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "any, or codecs with optional top levels: lz4,zstd:9";
        }
    }

    /** Accepts objective specs that {@link Objective#parse} accepts. */
    private static final class ObjectiveValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                Objective.parse((String) value);
            } catch (RuntimeException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "time, cpu-budget:CORES, cost:egress=E,cpu=C[,decode=D][,floor=RATE]";
        }
    }

    /** Accepts controller names that {@link LevelControllers#byName} accepts. */
    private static final class ControllerValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                LevelControllers.byName((String) value);
            } catch (RuntimeException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "model, adoc, fixed:N";
        }
    }
}
