package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.ThroughputController;
import org.adaptivecompress.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Until the sink has taken a write of block bytes, the writer stays a few blocks ahead of it. */
@Timeout(60)
class FirstWriteTest {

    private static final int BLOCK = 64 * 1024;
    private static final byte[] DATA = DataKind.JSON_EVENTS.generate(16 * BLOCK);
    private static final long HELD_MILLIS = 100;

    @ParameterizedTest(name = "maxWorkers={0}")
    @ValueSource(ints = {1, 2})
    void theWriterCompressesAFewBlocksThenWaitsForTheSinksFirstWrite(int maxWorkers) throws Exception {
        HeldSink sink = new HeldSink();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(BLOCK).maxWorkers(maxWorkers)
                .build(sink);
        // The 1 MiB FIFO has room for all 16 blocks: only the first write can hold the writer.
        writeThroughHeldSink(out, sink, writing -> {
            Thread.sleep(200);
            assertThat(writing).isNotDone();
            assertThat(out.statistics().totalBlocks()).isEqualTo(AdaptiveOutputStream.BLOCKS_BEFORE_FIRST_WRITE);
        });

        assertThat(out.statistics().totalBlocks()).isEqualTo(16);
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(sink.received()))) {
            assertThat(in.readAllBytes()).isEqualTo(DATA);
        }
    }

    @Test
    void theWaitForTheFirstWriteReachesTheControllerAsAWaitNotAsWork() throws Exception {
        Observation afterTheWait = observationAfterAHeldFirstWrite();

        assertThat(afterTheWait.writerWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HELD_MILLIS));
    }

    @Test
    void aHeldFirstWriteIsTheLinkAtWorkNotIdle() throws Exception {
        Observation afterTheWait = observationAfterAHeldFirstWrite();

        // Queued, then in the sink's hands: the link was never idle for want of bytes meanwhile.
        assertThat(afterTheWait.linkIdleNanos()).isBetween(0L, TimeUnit.MILLISECONDS.toNanos(HELD_MILLIS) / 2);
    }

    /** What the default controller saw of the block the writer compressed once a first write held {@value #HELD_MILLIS} ms ended. */
    private static Observation observationAfterAHeldFirstWrite() throws Exception {
        HeldSink sink = new HeldSink();
        List<Observation> seen = new CopyOnWriteArrayList<>();
        ThroughputController model = new ThroughputController();
        LevelController recording = new LevelController() {
            @Override
            public int initialRung(int top) {
                return model.initialRung(top);
            }

            @Override
            public int nextRung(Observation observation) {
                seen.add(observation);
                return model.nextRung(observation);
            }
        };
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(BLOCK).controller(() -> recording)
                .build(sink);
        writeThroughHeldSink(out, sink, writing -> Thread.sleep(HELD_MILLIS));
        return seen.get(AdaptiveOutputStream.BLOCKS_BEFORE_FIRST_WRITE);
    }

    @ParameterizedTest(name = "maxWorkers={0}")
    @ValueSource(ints = {1, 2})
    void aSinkThatFailsBeforeItsFirstWriteFailsTheWaitingWriter(int maxWorkers) throws Exception {
        OutputStream failing = new BrokenSink("connection refused");
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(BLOCK).maxWorkers(maxWorkers)
                .build(failing);
        try {
            out.write(DATA);
            throw new AssertionError("16 blocks went into a sink that took nothing");
        } catch (IOException expected) {
            assertThat(expected).hasRootCauseMessage("connection refused");
        }
        assertThat(out.statistics().totalBlocks()).isLessThanOrEqualTo(AdaptiveOutputStream.BLOCKS_BEFORE_FIRST_WRITE);
    }

    @Test
    void theWriteTheWriterWaitsForEndsWithTheFirstFrame() throws Exception {
        // The sink holds its first write (often the stream header alone, the sender being
        // scheduled before the first block is compressed) until the writer has queued the
        // blocks it may before the wait: the next write must still end with the first frame.
        AdaptiveOutputStream[] stream = new AdaptiveOutputStream[1];
        WriteRecordingSink sink = new WriteRecordingSink() {
            @Override
            public void write(byte[] b, int off, int len) {
                while (sizes().isEmpty()
                        && stream[0].statistics().totalBlocks() < AdaptiveOutputStream.BLOCKS_BEFORE_FIRST_WRITE) {
                    Thread.onSpinWait();
                }
                super.write(b, off, len);
            }
        };
        stream[0] = AdaptiveOutputStream.builder().blockSize(BLOCK).build(sink);
        try (AdaptiveOutputStream out = stream[0]) {
            out.write(DATA);
        }

        byte[] bytes = sink.received();
        long firstFrameEnd = FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH
                + FrameFormat.getInt(bytes, FrameFormat.STREAM_HEADER_LENGTH + 8);
        assertThat(sink.writeEnds()).contains(firstFrameEnd);
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(bytes))) {
            assertThat(in.readAllBytes()).isEqualTo(DATA);
        }
    }

    /** What a test does while the writer is held by the sink's first write. */
    private interface WhileHeld {
        void run(Future<?> writing) throws Exception;
    }

    /**
     * Writes {@link #DATA} into {@code out} and closes it on another thread; once the writer has
     * compressed the blocks it may before the sink's first write, runs {@code whileHeld}, then
     * opens the sink and waits for the close.
     */
    private static void writeThroughHeldSink(AdaptiveOutputStream out, HeldSink sink, WhileHeld whileHeld)
            throws Exception {
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<?> writing = writer.submit(() -> {
                out.write(DATA);
                out.close();
                return null;
            });
            while (out.statistics().totalBlocks() < AdaptiveOutputStream.BLOCKS_BEFORE_FIRST_WRITE) {
                Thread.sleep(1);
            }
            whileHeld.run(writing);
            sink.open.countDown();
            writing.get(30, TimeUnit.SECONDS);
        } finally {
            sink.open.countDown();
            writer.shutdownNow();
        }
    }
}
