package org.adaptivecompress.kafka;

import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Adaptive serdes around the serdes an application already has, for Kafka Streams
 * ({@code Consumed.with}, {@code Produced.with}, {@code Materialized.with}) and for any code that
 * takes a {@link Serde}. The wrapped serializer frames and compresses what the inner one writes;
 * the wrapped deserializer reads such frames and hands the bytes to the inner one.
 *
 * <p>Kafka Streams does not configure serdes passed to its operators, so these take the
 * properties and return a configured serde: give them the application's properties (with
 * {@code bootstrap.servers}, so that small values get dictionaries trained online, and any
 * {@code adaptive.*} key). A serde cannot see the acknowledgements of the producer that Kafka
 * Streams makes, so it compresses at {@code adaptive.fallback.rung} and does not adapt.
 */
public final class AdaptiveSerdes {

    private AdaptiveSerdes() {}

    /** A serde for record values around {@code inner}, configured with {@code configs}. */
    public static <T> Serde<T> wrap(Serde<T> inner, Map<String, ?> configs) {
        return configured(inner, configs, false);
    }

    /** A serde for record keys around {@code inner}, configured with {@code configs}. */
    public static <T> Serde<T> wrapKey(Serde<T> inner, Map<String, ?> configs) {
        return configured(inner, configs, true);
    }

    private static <T> Serde<T> configured(Serde<T> inner, Map<String, ?> configs, boolean isKey) {
        Serde<T> serde = Serdes.serdeFrom(new AdaptiveSerializer<>(inner.serializer()),
                new AdaptiveDeserializer<>(inner.deserializer()));
        serde.configure(configs, isKey);
        return serde;
    }
}
