package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.junit.jupiter.api.Test;

class SinkFailureTest {

    /** Accepts {@code limit} bytes, then every write fails. Counts closes. */
    private static final class FailingSink extends OutputStream {
        final AtomicInteger closes = new AtomicInteger();
        private final long limit;
        private long written;

        FailingSink(long limit) {
            this.limit = limit;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (written + len > limit) {
                throw new IOException("disk full");
            }
            written += len;
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private static final byte[] DATA = DataKind.RANDOM.generate(4 << 20);

    @Test
    void theWriterGetsTheSinksExceptionAndNoThreadOutlivesClose() throws Exception {
        FailingSink sink = new FailingSink(300_000);
        AtomicReference<Thread> sender = new AtomicReference<>();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().fifoCapacity(64 * 1024)
                .threadFactory(r -> {
                    Thread t = new Thread(r, "test-sender");
                    sender.set(t);
                    return t;
                }).build(sink);

        Throwable duringWrites = catchThrowable(() -> {
            for (int i = 0; i < DATA.length; i += 10_000) {
                out.write(DATA, i, Math.min(10_000, DATA.length - i));
            }
            out.flush();
        });
        assertThat(duringWrites).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");

        assertThatThrownBy(() -> out.write(1)).as("a write after the failure throws at once")
                .isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");

        assertThat(sender.get().isAlive()).isFalse();
        assertThat(sink.closes.get()).isEqualTo(1);
        out.close(); // idempotent
        assertThat(sink.closes.get()).isEqualTo(1);
    }

    /** Fails the write number {@code failAt} (from 0), and every write after it. */
    private static final class FailingAtWrite extends OutputStream {
        private final int failAt;
        int writes;

        FailingAtWrite(int failAt) {
            this.failAt = failAt;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (writes++ >= failAt) {
                throw new IOException("write " + (writes - 1) + " failed");
            }
        }
    }

    /**
     * Whichever write of the sink fails (the first, one in the middle, the end marker's), the
     * writer hears of it from write, flush or close, and never reports a stream as written whole
     * when the sink did not take all of it.
     */
    @Test
    void aSinkFailingAtAnyWriteReachesTheWriter() throws Exception {
        byte[] data = DataKind.MIXED.generate(600_000);
        FailingAtWrite counting = new FailingAtWrite(Integer.MAX_VALUE);
        writeAll(data, counting);
        int writes = counting.writes;
        assertThat(writes).isGreaterThan(3);

        int failed = 0;
        for (int failAt = 0; failAt < writes; failAt++) {
            FailingAtWrite sink = new FailingAtWrite(failAt);
            Throwable failure = catchThrowable(() -> writeAll(data, sink));
            // The sender batches what the FIFO holds, so a run may take fewer writes than the first.
            if (sink.writes > failAt) {
                failed++;
                assertThat(failure).as("sink failing at write %d of %d", failAt, sink.writes)
                        .isInstanceOf(IOException.class).hasRootCauseMessage("write " + failAt + " failed");
            } else {
                assertThat(failure).as("a run of %d writes, none failed", sink.writes).isNull();
            }
        }
        assertThat(failed).isGreaterThan(writes / 2);
    }

    private static void writeAll(byte[] data, OutputStream sink) throws IOException {
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder("raw,lz4,zstd:3")
                .controller("fixed:2").blockSize(64 * 1024).build(sink)) {
            for (int i = 0; i < data.length; i += 50_000) {
                out.write(data, i, Math.min(50_000, data.length - i));
                if (i % 200_000 == 0) {
                    out.flush();
                }
            }
        }
    }

    /**
     * A writer interrupted while the sink holds every write: its write throws
     * {@link InterruptedIOException}, its close gives up the drain rather than wait for the sink,
     * and no thread of the stream outlives the close.
     */
    @Test
    void anInterruptedWriterGetsOutAndLeavesNoThread() throws Exception {
        HeldSink sink = new HeldSink();
        AtomicReference<Thread> sender = new AtomicReference<>();
        AtomicReference<Throwable> fromWrite = new AtomicReference<>();
        AtomicReference<Throwable> fromClose = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            AdaptiveOutputStream out = AdaptiveOutputStream.builder().fifoCapacity(64 * 1024)
                    .threadFactory(r -> {
                        Thread t = new Thread(r, "test-sender");
                        sender.set(t);
                        return t;
                    }).build(sink);
            fromWrite.set(catchThrowable(() -> {
                for (int i = 0; i < DATA.length; i += 10_000) {
                    out.write(DATA, i, Math.min(10_000, DATA.length - i));
                }
            }));
            fromClose.set(catchThrowable(out::close));
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        }, "test-writer");
        writer.start();
        while (sender.get() == null || writer.getState() != Thread.State.WAITING
                && writer.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(5); // until the writer waits on the full FIFO
        }

        writer.interrupt();
        writer.join(60_000);

        assertThat(writer.isAlive()).as("the writer got out").isFalse();
        assertThat(fromWrite.get()).isInstanceOf(InterruptedIOException.class);
        assertThat(fromClose.get()).isInstanceOf(InterruptedIOException.class);
        assertThat(stillInterrupted.get()).as("the interrupt is kept for the caller").isTrue();
        sender.get().join(60_000);
        assertThat(sender.get().isAlive()).as("the sender outlived the close").isFalse();
    }

    @Test
    void aFailureDuringTheLastDrainSurfacesFromClose() throws Exception {
        FailingSink sink = new FailingSink(200_000);
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().fifoCapacity(1 << 20).build(sink);
        out.write(DATA, 0, 250_000); // fits in the FIFO: the failure happens after the writes return

        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThat(sink.closes.get()).isEqualTo(1);
    }

    @Test
    void aSinkThatFailsToCloseReportsItFromClose() {
        OutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() throws IOException {
                throw new IOException("close failed");
            }
        };
        AdaptiveOutputStream out = new AdaptiveOutputStream(sink);
        assertThatThrownBy(out::close).hasMessage("close failed");
    }

    @Test
    void flushReturnsOnlyOnceTheBytesReachedTheSink() throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        AtomicInteger flushes = new AtomicInteger();
        OutputStream slowSink = new RateLimitedOutputStream(new OutputStream() {
            @Override
            public void write(int b) {
                received.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                received.write(b, off, len);
            }

            @Override
            public void flush() {
                flushes.incrementAndGet();
            }
        }, 2_000_000);
        byte[] data = DataKind.JSON_EVENTS.generate(200_000);
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(slowSink)) {
            out.write(data);
            out.flush();
            // Everything written so far decodes from what the sink holds, though the end marker is missing.
            byte[] partial = received.toByteArray();
            assertThat(flushes.get()).isPositive();
            AdaptiveInputStream in = new AdaptiveInputStream(new java.io.ByteArrayInputStream(partial));
            assertThat(in.readNBytes(data.length)).isEqualTo(data);
        }
    }

    @Test
    void writesAfterCloseFail() throws IOException {
        AdaptiveOutputStream out = new AdaptiveOutputStream(new ByteArrayOutputStream());
        out.close();
        assertThatThrownBy(() -> out.write(1)).hasMessage("stream is closed");
    }
}
