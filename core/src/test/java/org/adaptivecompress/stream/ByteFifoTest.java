package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The FIFO counts the time its writer spends blocked, so the controller can tell it from work. */
@Timeout(30)
class ByteFifoTest {

    private static final int CAPACITY = 1024;
    private static final long HOLD_MILLIS = 50;

    @Test
    void aPutThatFindsRoomCountsNoWait() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        fifo.put(new byte[CAPACITY / 2], 0, CAPACITY / 2);

        assertThat(fifo.takeWriterWaitNanos()).isZero();
    }

    @Test
    void theWritersWaitForRoomIsCountedOnceAndThenReset() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        HeldSink sink = new HeldSink();
        Thread sender = new Thread(() -> fifo.drainTo(sink));
        sender.start();
        Thread opener = openOnceBlocked(Thread.currentThread(), sink);

        fifo.put(new byte[CAPACITY], 0, CAPACITY);
        fifo.put(new byte[CAPACITY], 0, CAPACITY); // no room until the sink opens

        assertThat(fifo.takeWriterWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS));
        assertThat(fifo.takeWriterWaitNanos()).isZero();
        fifo.finish();
        sender.join();
        opener.join();
        assertThat(sink.received().length).isEqualTo(2 * CAPACITY);
    }

    @Test
    void theWritersWaitForAFlushIsCounted() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        HeldSink sink = new HeldSink();
        Thread sender = new Thread(() -> fifo.drainTo(sink));
        sender.start();
        fifo.put(new byte[10], 0, 10);
        Thread opener = openOnceBlocked(Thread.currentThread(), sink);

        fifo.awaitFlushed();

        assertThat(fifo.takeWriterWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS));
        fifo.finish();
        sender.join();
        opener.join();
    }

    /** Opens {@code sink} {@value #HOLD_MILLIS} ms after {@code writer} blocks, so that whole hold is its wait. */
    private static Thread openOnceBlocked(Thread writer, HeldSink sink) {
        Thread opener = new Thread(() -> {
            while (writer.getState() != Thread.State.WAITING && writer.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            try {
                Thread.sleep(HOLD_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sink.open.countDown();
        });
        opener.start();
        return opener;
    }
}
