package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.engine.SinkMeter;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Frames still queued when the controller climbs are compressed again at its new rung before
 * the sender reaches them, where the controller asks for it, and the stream stays the same
 * stream: every byte decodes, in order, and the statistics count the frames as sent.
 */
@Timeout(60)
class RecompressQueuedFramesTest {

    private static final int BLOCK = 128 * 1024;
    private static final int BLOCKS = 24;
    private static final int FAST_BLOCKS = 16;
    /** Room for every frame the stream queues while the sink holds them. */
    private static final int FIFO = 4 << 20;
    private static final int LZ4 = 1;
    private static final int ZSTD9 = 4;

    /**
     * LZ4 for the first {@value #FAST_BLOCKS} blocks, then zstd:9, as if the link had dropped;
     * once there, wants the frames queued below zstd:9 compressed again, if told to.
     */
    private static class LinkDrops implements LevelController {
        private final boolean recompress;
        private int blocks;

        LinkDrops(boolean recompress) {
            this.recompress = recompress;
        }

        @Override
        public int initialRung(Ladder ladder) {
            return LZ4;
        }

        @Override
        public Decision decide(Observation observation) {
            return Decision.of(++blocks < FAST_BLOCKS ? LZ4 : ZSTD9, Reason.FIXED);
        }

        @Override
        public int recompressRung(int storedRung) {
            return recompress && blocks >= FAST_BLOCKS ? Math.max(storedRung, ZSTD9) : storedRung;
        }
    }

    @Test
    void framesQueuedBeforeTheLinkDroppedAreCompressedAgainAtTheNewRungAndDecodeIntact() throws IOException {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);

        Sent recompressed = send(data, false, new LinkDrops(true));
        Sent asQueued = send(data, false, new LinkDrops(false));

        assertThat(decode(recompressed.bytes)).isEqualTo(data);
        assertThat(decode(asQueued.bytes)).isEqualTo(data);
        assertThat(asQueued.statistics.blocks(LZ4)).isEqualTo(FAST_BLOCKS);
        assertThat(asQueued.statistics.recompressedBlocks()).isZero();
        // Only frames the sender had begun writing (what the sink took, and the held write) stay
        // LZ4: about that many bytes of frames, and one more at either end.
        int begun = (ByteFifo.MAX_WRITE + recompressed.passed) / (int) (asQueued.statistics.bytesOut(LZ4)
                / FAST_BLOCKS) + 2;
        assertThat(recompressed.statistics.recompressedBlocks()).as(recompressed.statistics.toString())
                .isGreaterThanOrEqualTo(FAST_BLOCKS - begun);
        assertThat(recompressed.statistics.blocks(LZ4) + recompressed.statistics.recompressedBlocks())
                .isEqualTo(FAST_BLOCKS);
        assertThat(recompressed.statistics.blocks(ZSTD9)).isEqualTo(BLOCKS - recompressed.statistics.blocks(LZ4));
        assertThat(recompressed.bytes.length).isLessThan(asQueued.bytes.length);
        assertThat(recompressed.statistics.totalBytesOut()).as("the statistics count the frames as sent")
                .isEqualTo(recompressed.bytes.length - FrameFormat.STREAM_HEADER_LENGTH
                        - FrameFormat.BLOCK_HEADER_LENGTH);
    }

    /**
     * With parallel compression the writer queues the workers' frames in block order, and
     * compresses again those still queued, and each frame it is about to queue, as it would
     * its own.
     */
    @Test
    void withWorkersFramesQueuedBeforeTheLinkDroppedAreCompressedAgainToo() throws IOException {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);

        byte[] recompressed = sendWithWorkers(data, new LinkDrops(true));
        byte[] asQueued = sendWithWorkers(data, new LinkDrops(false));

        assertThat(decode(recompressed)).isEqualTo(data);
        assertThat(decode(asQueued)).isEqualTo(data);
        assertThat(recompressed.length).isLessThan(asQueued.length);
    }

    @Test
    void withHistoriesQueuedFramesStayAsTheyWere() throws IOException {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);

        Sent sent = send(data, true, new LinkDrops(true));

        assertThat(sent.statistics.recompressedBlocks()).isZero();
        assertThat(sent.statistics.blocks(LZ4)).isEqualTo(FAST_BLOCKS);
        assertThat(decode(sent.bytes)).isEqualTo(data);
    }

    /**
     * Frames are taken back from the FIFO before they are compressed again. A controller that
     * fails part way (here it answers a rung below the frame's, which the compressor refuses)
     * must not leave the stream to end as if whole: those frames, and the block in hand, would
     * be missing from a stream that decodes. The writer hears of it, close fails, and a reader
     * finds the stream cut short.
     */
    @ParameterizedTest(name = "maxWorkers {0}")
    @ValueSource(ints = {1, 2})
    void aControllerFailingWhileQueuedFramesAreCompressedAgainBreaksTheStreamRatherThanLosingFrames(int maxWorkers)
            throws IOException {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);
        LevelController failsOnItsThirdAnswer = new LinkDrops(true) {
            private int answers;

            @Override
            public int recompressRung(int storedRung) {
                int wanted = super.recompressRung(storedRung);
                return wanted > storedRung && ++answers > 2 ? storedRung - 1 : wanted;
            }
        };
        HeldOnceShown sink = new HeldOnceShown();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> failsOnItsThirdAnswer)
                .maxWorkers(maxWorkers).heldWorkers(maxWorkers).build(sink);

        assertThatThrownBy(() -> {
            out.write(data);
            out.flush(); // with workers, the last blocks' frames are queued here
        }).isInstanceOf(IllegalStateException.class);
        assertBrokenByTheController(out, sink, data);
    }

    /**
     * With workers, the last blocks' frames are queued, and queued frames compressed again, in
     * {@link AdaptiveOutputStream#flush()}: a failure there breaks the stream as one in a
     * write does.
     */
    @Test
    void withWorkersAFailureWhileFlushFramesAreQueuedBreaksTheStream() throws IOException {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);
        LevelController failsOnTheLastBlock = new LinkDrops(true) {
            private int updates;

            @Override
            public Decision decide(Observation observation) {
                updates++;
                return super.decide(observation);
            }

            @Override
            public int recompressRung(int storedRung) {
                return updates >= BLOCKS ? storedRung - 1 : super.recompressRung(storedRung);
            }
        };
        HeldOnceShown sink = new HeldOnceShown();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> failsOnTheLastBlock).maxWorkers(2)
                .heldWorkers(2).build(sink);
        out.write(data); // the last two blocks are still with the workers

        assertThatThrownBy(out::flush).isInstanceOf(IllegalStateException.class);
        assertBrokenByTheController(out, sink, data);
    }

    /**
     * A {@link AdaptiveOutputStream#finish()} whose wait for the sink is interrupted leaves its
     * end marker queued among frames, and the next write queues the next stream's header behind
     * it. Frames taken back to be compressed again are put back around both, in order.
     */
    @Test
    void framesTakenBackAcrossAnInterruptedFinishArePutBackAroundTheStreamsEnd() throws Exception {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);
        int firstStream = FAST_BLOCKS * BLOCK; // more frames than the sink takes before it holds its writes
        HeldOnceShown sink = new HeldOnceShown();
        LinkDrops controller = new LinkDrops(true);
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller).fifoCapacity(FIFO)
                .build(sink);
        out.write(data, 0, firstStream);
        Thread finishing = new Thread(() -> {
            try {
                out.finish();
            } catch (IOException expected) {
                // interrupted while the sink holds its writes
            }
        });
        finishing.start();
        while (finishing.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        finishing.interrupt();
        finishing.join();

        out.write(data, firstStream, data.length - firstStream);
        sink.held.open.countDown();
        out.close();

        assertThat(out.statistics().recompressedBlocks()).as("frames were taken back across the end marker")
                .isPositive();
        try (AdaptiveInputStream in = AdaptiveInputStream.builder().concatenated(true)
                .build(new ByteArrayInputStream(sink.received()))) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
    }

    /** What a sink received, the statistics once every block was written, and what the sink took before it held. */
    private static final class Sent {
        final byte[] bytes;
        final CompressionStatistics statistics;
        final int passed;

        Sent(byte[] bytes, CompressionStatistics statistics, int passed) {
            this.bytes = bytes;
            this.statistics = statistics;
            this.passed = passed;
        }
    }

    /** Writes {@code data} while the sink holds all but its first write, then lets it all through. */
    private static Sent send(byte[] data, boolean history, LevelController controller) throws IOException {
        HeldOnceShown sink = new HeldOnceShown();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller).history(history)
                .fifoCapacity(FIFO).build(sink);
        out.write(data);
        CompressionStatistics statistics = out.statistics();
        sink.held.open.countDown();
        out.close();
        return new Sent(sink.received(), statistics, sink.passed);
    }

    /**
     * {@link #send} with two compression workers held from the first block: returns what the sink received, and checks
     * the statistics once the stream is closed (blocks still in flight when the writer returns
     * are counted only as their frames are queued).
     */
    private static byte[] sendWithWorkers(byte[] data, LinkDrops controller) throws IOException {
        HeldOnceShown sink = new HeldOnceShown();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller).maxWorkers(2)
                .heldWorkers(2).fifoCapacity(FIFO).build(sink);
        out.write(data);
        sink.held.open.countDown();
        out.close();
        CompressionStatistics statistics = out.statistics();
        // Blocks stored at LZ4 at first: the eight, and up to the two in flight when the controller moved.
        assertThat(statistics.blocks(LZ4) + statistics.recompressedBlocks()).as(statistics.toString())
                .isBetween((long) FAST_BLOCKS, FAST_BLOCKS + 2L);
        if (controller.recompress) {
            assertThat(statistics.recompressedBlocks()).as(statistics.toString()).isPositive();
        } else {
            assertThat(statistics.recompressedBlocks()).isZero();
        }
        assertThat(statistics.totalBytesOut()).as("the statistics count the frames as sent")
                .isEqualTo(sink.received().length - FrameFormat.STREAM_HEADER_LENGTH - FrameFormat.BLOCK_HEADER_LENGTH);
        return sink.received();
    }

    /**
     * After the controller's failure: every write throws with it as the cause, close too once
     * the sink lets the frames through, and what the sink got reads as cut short.
     */
    private static void assertBrokenByTheController(AdaptiveOutputStream out, HeldOnceShown sink,
            byte[] data) {
        assertThatThrownBy(() -> out.write(data)).isInstanceOf(IOException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        sink.held.open.countDown();
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> decode(sink.received())).isInstanceOf(FrameFormatException.class);
    }

    private static byte[] decode(byte[] stream) throws IOException {
        try (AdaptiveInputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }
}
