package org.adaptivecompress.kafka;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Codec contexts shared by the threads that call one serializer or deserializer: a thread takes
 * one, uses it alone, and gives it back. Unlike a ThreadLocal, the pool can close every context
 * when Kafka closes the serde, and it never holds more contexts than threads ran at once.
 */
final class ContextPool<T extends AutoCloseable> {

    private final ConcurrentLinkedQueue<T> idle = new ConcurrentLinkedQueue<>();
    private final Supplier<T> factory;

    ContextPool(Supplier<T> factory) {
        this.factory = factory;
    }

    T take() {
        T t = idle.poll();
        return t != null ? t : factory.get();
    }

    void give(T t) {
        idle.add(t);
    }

    /** Closes the idle contexts; call once no thread uses the pool any more. */
    void close() {
        for (T t; (t = idle.poll()) != null;) {
            try {
                t.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing a codec context failed", e);
            }
        }
    }
}
