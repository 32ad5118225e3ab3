package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.adaptivecompress.internal.engine.SinkMeter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The FIFO counts the time its writer spends blocked, so the controller can tell it from work,
 * and lets the writer write a frame itself only where the frame keeps its place in the stream.
 */
@Timeout(30)
class ByteFifoTest {

    private static final int CAPACITY = 1024;
    private static final long HOLD_MILLIS = 50;

    @Test
    void aRingGrownBeforeTheSenderStartsKeepsQueuedBytesInOrderAcrossItsWrap() throws Exception {
        ByteFifo fifo = new ByteFifo(16, CAPACITY, new SinkMeter(System.nanoTime()));
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        byte[] data = new byte[600];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        fifo.put(data, 0, 10);
        fifo.sendQueued(sink); // the next put wraps around the 16-byte ring
        fifo.put(data, 10, 12);

        assertThat(fifo.growFor(100)).isTrue();
        fifo.put(data, 22, 100);
        assertThat(fifo.growFor(CAPACITY - 112)).as("up to the capacity").isTrue();
        assertThat(fifo.growFor(CAPACITY - 111)).as("never past it").isFalse();
        fifo.put(data, 122, 478);
        fifo.sendQueued(sink);
        fifo.growToCapacity();
        Thread sender = startSender(fifo, sink);
        fifo.put(data, 0, 600);
        fifo.finish();
        sender.join();

        byte[] expected = Arrays.copyOf(data, 1200);
        System.arraycopy(data, 0, expected, 600, 600);
        assertThat(sink.toByteArray()).isEqualTo(expected);
        assertThat(fifo.drainedBytes()).isEqualTo(1200);
    }

    @Test
    void theMeterSeesTheSinkIdleOnlyWhileNothingIsQueuedNorBeingWritten() throws Exception {
        SinkMeter meter = new SinkMeter(System.nanoTime());
        ByteFifo fifo = new ByteFifo(CAPACITY, CAPACITY, meter);
        fifo.put(new byte[100], 0, 100);
        meter.sample(System.nanoTime());
        Thread.sleep(HOLD_MILLIS);
        assertThat(meter.sample(System.nanoTime()).idleNanos()).as("bytes queued").isZero();

        fifo.sendQueued(new MeteredSink(OutputStream.nullOutputStream(), meter));
        Thread.sleep(HOLD_MILLIS);
        assertThat(meter.sample(System.nanoTime()).idleNanos()).as("everything written")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS));

        long[] whileWriting = {-1, -1};
        assertThat(fifo.writeThrough(new byte[10], 0, 10, holdingSink(meter, whileWriting, 0))).isTrue();
        assertThat(whileWriting[0]).as("the writer writing a frame itself").isZero();

        CountDownLatch written = new CountDownLatch(1);
        OutputStream held = holdingSink(meter, whileWriting, 1);
        Thread sender = startSender(fifo, new OutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                held.write(b, off, len);
                written.countDown();
            }
        });
        fifo.put(new byte[100], 0, 100);
        written.await();
        fifo.finish();
        sender.join();
        assertThat(whileWriting[1]).as("the sender writing").isZero();
    }

    /**
     * A metered sink whose write holds {@value #HOLD_MILLIS} ms and records in {@code idle[slot]}
     * the idle time the meter counted meanwhile.
     */
    private static OutputStream holdingSink(SinkMeter meter, long[] idle, int slot) {
        return new MeteredSink(new OutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                meter.sample(System.nanoTime());
                try {
                    Thread.sleep(HOLD_MILLIS);
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                idle[slot] = meter.sample(System.nanoTime()).idleNanos();
            }
        }, meter);
    }

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
        Thread sender = startSender(fifo, sink);
        Thread opener = openOnceBlocked(Thread.currentThread(), sink);

        fifo.put(new byte[CAPACITY], 0, CAPACITY);
        fifo.put(new byte[CAPACITY], 0, CAPACITY); // no room until the sink opens

        // The opener may start its hold while the writer waits a moment inside the first put,
        // so the second put's wait is only known to be most of the hold.
        assertThat(fifo.takeWriterWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS) / 2);
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
        Thread sender = startSender(fifo, sink);
        fifo.put(new byte[10], 0, 10);
        Thread opener = openOnceBlocked(Thread.currentThread(), sink);

        fifo.awaitFlushed();

        assertThat(fifo.takeWriterWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS));
        fifo.finish();
        sender.join();
        opener.join();
    }

    @Test
    void aFrameIsWrittenThroughOnlyWhileNothingIsQueuedAndKeepsItsPlace() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        HeldSink sink = new HeldSink();
        Thread sender = startSender(fifo, sink);
        fifo.put(new byte[] {1, 2}, 0, 2); // the sender holds these in a write the sink has not taken

        assertThat(fifo.writeThrough(new byte[] {9}, 0, 1, sink)).as("bytes queued ahead").isFalse();
        sink.open.countDown();
        fifo.awaitFlushed();
        assertThat(fifo.writeThrough(new byte[] {0, 3, 4, 5}, 1, 3, sink)).isTrue();
        fifo.put(new byte[] {6}, 0, 1);
        fifo.finish();
        sender.join();

        assertThat(sink.received()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(fifo.drainedBytes()).isEqualTo(6);
        assertThat(fifo.queuedBytes()).isZero();
        assertThat(fifo.takeWriterWaitNanos()).as("the wait includes the write").isPositive();
    }

    @Test
    void aSinkThatFailsAWriteThroughFailsTheFifoForTheWriter() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        OutputStream failing = new BrokenSink("disk full");

        assertThatThrownBy(() -> fifo.writeThrough(new byte[16], 0, 16, failing)).isInstanceOf(IOException.class)
                .hasRootCauseMessage("disk full");
        assertThat(fifo.failure()).hasMessage("disk full");
        assertThatThrownBy(() -> fifo.put(new byte[1], 0, 1)).isInstanceOf(IOException.class)
                .hasRootCauseMessage("disk full");
        assertThat(fifo.drainedBytes()).isZero();
    }

    @Test
    void bytesTheSenderHasNotBegunAreTakenBackAndWhatIsPutNextTakesTheirPlace() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        HeldSink sink = new HeldSink();
        Thread sender = startSender(fifo, sink);
        fifo.put(new byte[] {1, 2}, 0, 2);
        awaitSendingEnd(fifo, 2); // the sender holds 1, 2 in a write the sink has not taken
        fifo.put(new byte[] {3, 4, 5}, 0, 3);
        byte[] taken = new byte[CAPACITY];

        assertThat(fifo.takeBack(1, taken)).as("inside the write in progress").isEqualTo(-1);
        assertThat(fifo.takeBack(2, taken)).isEqualTo(3);
        assertThat(Arrays.copyOf(taken, 3)).containsExactly(3, 4, 5);
        assertThat(fifo.putPosition()).isEqualTo(2);
        assertThat(fifo.queuedBytes()).isEqualTo(2);
        fifo.put(new byte[] {7}, 0, 1);
        sink.open.countDown();
        fifo.finish();
        sender.join();

        assertThat(sink.received()).containsExactly(1, 2, 7);
    }

    @Test
    void bytesTakenBackAcrossTheRingsEndComeBackInOrder() throws Exception {
        ByteFifo fifo = new ByteFifo(CAPACITY);
        HeldSink held = new HeldSink();
        AtomicBoolean firstWrite = new AtomicBoolean(true);
        OutputStream sink = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (!firstWrite.getAndSet(false)) {
                    held.write(b, off, len);
                }
            }
        };
        Thread sender = startSender(fifo, sink);
        fifo.put(new byte[900], 0, 900);
        awaitDrained(fifo, 900); // the first write passes: the ring's next byte is at index 900
        fifo.put(new byte[100], 0, 100);
        awaitSendingEnd(fifo, 1000); // the second is held
        byte[] wrapping = new byte[300];
        for (int i = 0; i < wrapping.length; i++) {
            wrapping[i] = (byte) (i + 1);
        }
        fifo.put(wrapping, 0, wrapping.length); // ring indexes 1000-1023, then 0-275

        byte[] taken = new byte[CAPACITY];
        assertThat(fifo.takeBack(1000, taken)).isEqualTo(300);
        assertThat(Arrays.copyOf(taken, 300)).containsExactly(wrapping);
        fifo.put(taken, 0, 300);
        held.open.countDown();
        fifo.finish();
        sender.join();

        assertThat(Arrays.copyOfRange(held.received(), 100, 400)).containsExactly(wrapping);
    }

    /** A sender thread draining {@code fifo} into {@code sink}, started. */
    private static Thread startSender(ByteFifo fifo, OutputStream sink) {
        Thread sender = new Thread(() -> fifo.drainTo(sink));
        sender.start();
        return sender;
    }

    /** Waits until the sender has written {@code bytes}. */
    private static void awaitDrained(ByteFifo fifo, long bytes) {
        while (fifo.drainedBytes() < bytes) {
            Thread.onSpinWait();
        }
    }

    /** Waits until the sender has begun a write that ends at {@code position}. */
    private static void awaitSendingEnd(ByteFifo fifo, long position) {
        while (fifo.sendingEnd() < position) {
            Thread.onSpinWait();
        }
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
