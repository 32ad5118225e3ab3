package org.adaptivecompress.netty;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor encoders compress on when the user passes none: one pool of daemon threads, as
 * many as processors, shared by every channel of the JVM and created on first use.
 *
 * <p>Shared rather than per channel because a server may hold thousands of channels; daemon so
 * that it never keeps the JVM alive. Each encoder runs at most one compression at a time, so a
 * channel never occupies more than one of these threads.
 */
final class CompressionExecutors {

    private CompressionExecutors() {}

    /** The shared default executor. */
    static Executor shared() {
        return Holder.POOL;
    }

    private static final class Holder {
        static final ExecutorService POOL = Executors.newFixedThreadPool(
                Runtime.getRuntime().availableProcessors(), new DaemonThreads());
    }

    private static final class DaemonThreads implements java.util.concurrent.ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "adaptive-compress-netty-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}
