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
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.model.ModelController;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Until the sink's writes have shown the link, the writer compresses a block only once the
 * sink has taken the frames before it: a sink that holds its first write holds the writer too.
 */
@Timeout(60)
class FirstWriteTest {

    private static final int BLOCK = 64 * 1024;
    private static final byte[] DATA = DataKind.JSON_EVENTS.generate(16 * BLOCK);
    /** What the writer may queue ahead of a sink that has taken nothing: the first block's frame. */
    private static final long AHEAD = FrameFormat.maxFrameLength(BLOCK);
    private static final long HELD_MILLIS = 100;

    @ParameterizedTest(name = "maxWorkers={0}")
    @ValueSource(ints = {1, 2})
    void theWriterCompressesOneBlockThenWaitsForTheSinksFirstWrite(int maxWorkers) throws Exception {
        HeldSink sink = new HeldSink();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(BLOCK).maxWorkers(maxWorkers)
                .build(sink);
        // The 1 MiB FIFO has room for all 16 blocks: only the start-up rule can hold the writer.
        writeThroughHeldSink(out, sink, writing -> {
            Thread.sleep(200);
            assertThat(writing).isNotDone();
            assertThat(out.statistics().totalBlocks()).isEqualTo(1);
        });

        assertThat(out.statistics().totalBytesIn()).isEqualTo(DATA.length);
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(sink.received()))) {
            assertThat(in.readAllBytes()).isEqualTo(DATA);
        }
    }

    @Test
    void theWaitForTheFirstWriteReachesTheControllerAsAWaitNotAsWork() throws Exception {
        Observation afterTheWait = observationAfterAHeldFirstWrite();

        // Most of the hold: the writer starts waiting once it has compressed its first block.
        assertThat(afterTheWait.writerWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(HELD_MILLIS) / 2);
    }

    @Test
    void aHeldFirstWriteIsTheLinkAtWorkNotIdle() throws Exception {
        Observation afterTheWait = observationAfterAHeldFirstWrite();

        // Queued, then in the sink's hands: the link was never idle for want of bytes meanwhile.
        assertThat(afterTheWait.link().idleNanos()).isBetween(0L, TimeUnit.MILLISECONDS.toNanos(HELD_MILLIS) / 2);
    }

    /** What the default controller saw of the block the writer compressed once a first write held {@value #HELD_MILLIS} ms ended. */
    private static Observation observationAfterAHeldFirstWrite() throws Exception {
        HeldSink sink = new HeldSink();
        List<Observation> seen = new CopyOnWriteArrayList<>();
        ModelController model = new ModelController();
        LevelController recording = new LevelController() {
            @Override
            public int initialRung(Ladder ladder) {
                return model.initialRung(ladder);
            }

            @Override
            public Decision decide(Observation observation) {
                seen.add(observation);
                return model.decide(observation);
            }
        };
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(BLOCK).controller(() -> recording)
                .build(sink);
        writeThroughHeldSink(out, sink, writing -> Thread.sleep(HELD_MILLIS));
        return seen.stream().max(java.util.Comparator.comparingLong(Observation::writerWaitNanos))
                .orElseThrow(() -> new AssertionError("no observation"));
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
        assertThat(out.statistics().totalBytesOut()).isLessThanOrEqualTo(AHEAD);
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
            while (out.statistics().totalBlocks() < 1) {
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
