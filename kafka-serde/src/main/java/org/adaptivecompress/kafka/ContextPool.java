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
    private volatile boolean closed;

    ContextPool(Supplier<T> factory) {
        this.factory = factory;
    }

    T take() {
        T t = idle.poll();
        return t != null ? t : factory.get();
    }

    /**
     * Takes a context back; after {@link #close()}, closes it instead (a thread that was still
     * using it when the serde closed), since nothing would free it later.
     */
    void give(T t) {
        idle.add(t);
        // Added before close() set the flag: close() drains it. Otherwise whichever of close()
        // and this removes it from the queue closes it, so it is closed exactly once.
        if (closed && idle.remove(t)) {
            IllegalStateException failure = closeRecording(null, t);
            if (failure != null) {
                throw failure;
            }
        }
    }

    /**
     * Closes the idle contexts, and any given back later. Every context is closed even if some
     * fail: the first failure is thrown, the others are suppressed by it.
     *
     * @throws IllegalStateException if closing a context failed
     */
    void close() {
        closed = true;
        IllegalStateException failure = null;
        for (T t; (t = idle.poll()) != null;) {
            failure = closeRecording(failure, t);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Closes {@code t}; returns the first failure so far: {@code t}'s if none came before, else
     * {@code failure}, with {@code t}'s suppressed.
     */
    private static IllegalStateException closeRecording(IllegalStateException failure, AutoCloseable t) {
        try {
            t.close();
            return failure;
        } catch (Exception e) {
            if (failure == null) {
                return new IllegalStateException("closing a codec context failed", e);
            }
            failure.addSuppressed(e);
            return failure;
        }
    }
}
