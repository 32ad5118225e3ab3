package org.adaptivecompress.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A map that keeps its {@code capacity} most recently used entries and hands each one it drops
 * to {@code onEvict} (to close a native context, or to note that something was dropped). Not
 * thread-safe.
 */
final class LruMap<K, V> extends LinkedHashMap<K, V> {

    private static final long serialVersionUID = 1L;

    private final int capacity;
    private final transient Consumer<V> onEvict;

    LruMap(int capacity, Consumer<V> onEvict) {
        super(16, 0.75f, true);
        this.capacity = capacity;
        this.onEvict = onEvict;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        if (size() <= capacity) {
            return false;
        }
        onEvict.accept(eldest.getValue());
        return true;
    }
}
