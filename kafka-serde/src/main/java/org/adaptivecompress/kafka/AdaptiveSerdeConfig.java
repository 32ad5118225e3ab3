package org.adaptivecompress.kafka;

import java.util.List;
import java.util.Map;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LevelControllers;
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
                            + "that chose it and what it assumed of the link) on the producer thread that made it.");

    /** Parses and validates {@code originals}; keys not defined here are ignored. */
    public AdaptiveSerdeConfig(Map<?, ?> originals) {
        super(CONFIG, originals, false);
    }

    /** The definition of every key, e.g. for {@link ConfigDef#toHtml()}. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /** The parsed ladder. */
    public Ladder ladder() {
        return Ladder.parse(getString(LADDER));
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
