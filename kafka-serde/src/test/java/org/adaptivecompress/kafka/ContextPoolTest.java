package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The serdes' context pool frees every context exactly once, whatever fails and whenever it comes back. */
class ContextPoolTest {

    @Test
    void closeClosesEveryIdleContextAndThrowsTheFirstFailureWithTheOthersSuppressed() {
        List<Context> made = new CopyOnWriteArrayList<>();
        ContextPool<Context> pool = new ContextPool<>(() -> track(made, new Context()));
        Context first = pool.take();
        Context second = pool.take();
        Context healthy = pool.take();
        first.failure = new IllegalStateException("first context failed");
        second.failure = new IllegalStateException("second context failed");
        pool.give(first);
        pool.give(second);
        pool.give(healthy);

        Throwable thrown = catchThrowable(pool::close);

        assertThat(made).hasSize(3).allSatisfy(c -> assertThat(c.closes.get()).isEqualTo(1));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasCause(first.failure);
        assertThat(thrown.getSuppressed()).containsExactly(second.failure);
    }

    @Test
    void aContextGivenBackAfterCloseIsClosedAtOnce() {
        ContextPool<Context> pool = new ContextPool<>(Context::new);
        Context inUse = pool.take();
        pool.close();
        assertThat(inUse.closes.get()).isZero();

        pool.give(inUse);
        assertThat(inUse.closes.get()).isEqualTo(1);
        pool.close();
        assertThat(inUse.closes.get()).isEqualTo(1);
    }

    @Test
    void aFailureClosingALateContextIsThrownToTheThreadGivingItBack() {
        ContextPool<Context> pool = new ContextPool<>(Context::new);
        Context inUse = pool.take();
        inUse.failure = new IllegalStateException("late context failed");
        pool.close();

        assertThat(catchThrowable(() -> pool.give(inUse))).isInstanceOf(IllegalStateException.class)
                .hasCause(inUse.failure);
        assertThat(inUse.closes.get()).isEqualTo(1);
    }

    /** Threads keep taking and giving back while the pool closes: none of their contexts is leaked or closed twice. */
    @Test
    void contextsInUseWhileThePoolClosesAreEachClosedExactlyOnce() throws Exception {
        List<Context> made = new CopyOnWriteArrayList<>();
        ContextPool<Context> pool = new ContextPool<>(() -> track(made, new Context()));
        int threads = 4;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch running = new CountDownLatch(threads);
        AtomicBoolean poolClosed = new AtomicBoolean();
        try {
            List<Future<?>> loops = new CopyOnWriteArrayList<>();
            for (int i = 0; i < threads; i++) {
                loops.add(executor.submit(() -> {
                    running.countDown();
                    // Runs through close() and on past it, so contexts come back before, during and after.
                    for (int afterClose = 0; afterClose < 1000;) {
                        pool.give(pool.take());
                        if (poolClosed.get()) {
                            afterClose++;
                        }
                    }
                }));
            }
            running.await();
            pool.close();
            poolClosed.set(true);
            for (Future<?> loop : loops) {
                loop.get(30, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        assertThat(made).isNotEmpty().allSatisfy(c -> assertThat(c.closes.get()).isEqualTo(1));
    }

    private static Context track(List<Context> made, Context c) {
        made.add(c);
        return c;
    }

    /** A context that counts its closes and fails them with {@link #failure} if set. */
    private static final class Context implements AutoCloseable {
        final AtomicInteger closes = new AtomicInteger();
        volatile RuntimeException failure;

        @Override
        public void close() {
            closes.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
        }
    }
}
