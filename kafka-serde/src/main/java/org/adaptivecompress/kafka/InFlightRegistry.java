package org.adaptivecompress.kafka;

import java.util.HashMap;
import java.util.Map;

/**
 * Links a producer's serializers to its interceptor. Kafka gives a serializer no handle on its
 * producer, but it configures serializers and interceptors with the producer's {@code client.id}
 * (generated when the user sets none), so that id is the key. Entries are reference-counted and
 * dropped when the last serializer or interceptor of the producer closes.
 *
 * <p>Two producers in one JVM with the same explicit {@code client.id} share one entry; Kafka
 * itself warns about such producers (their metrics collide too).
 */
final class InFlightRegistry {

    private static final Map<String, Entry> ENTRIES = new HashMap<>();

    private InFlightRegistry() {}

    /** The entry for {@code clientId}, created if needed; release it with {@link #release}. */
    static synchronized Entry acquire(String clientId) {
        Entry e = ENTRIES.computeIfAbsent(clientId, id -> new Entry());
        e.users++;
        return e;
    }

    static synchronized void release(String clientId) {
        Entry e = ENTRIES.get(clientId);
        if (e != null && --e.users == 0) {
            ENTRIES.remove(clientId);
        }
    }

    /** The gauges of one producer, one per side. */
    static final class Entry {
        final InFlightGauge keys = new InFlightGauge();
        final InFlightGauge values = new InFlightGauge();
        /** Set by an adaptive key serializer: only then do acknowledged key sizes count. */
        volatile boolean keysTracked;
        /** Set by an adaptive value serializer. */
        volatile boolean valuesTracked;
        private int users;

        InFlightGauge gauge(boolean isKey) {
            return isKey ? keys : values;
        }
    }
}
