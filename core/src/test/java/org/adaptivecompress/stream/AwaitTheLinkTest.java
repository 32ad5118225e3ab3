package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While the controller has not seen the link's rate ({@link Reason#STARTUP}), the writer
 * compresses a block only once the sink has taken the frames before it, even after the sink's
 * writes have shown the link: blocks compressed ahead would all carry the rung guessed at
 * start-up. A controller that has a rate lets the writer run ahead into the FIFO.
 */
@Timeout(60)
class AwaitTheLinkTest {

    private static final int BLOCK = 128 * 1024;
    private static final int BLOCKS = 48;
    private static final int LZ4 = 1;

    /** LZ4 for every block, for the reason given; counts its decisions. */
    private static final class Counting implements LevelController {
        final AtomicInteger decisions = new AtomicInteger();
        private final Reason reason;

        Counting(Reason reason) {
            this.reason = reason;
        }

        @Override
        public int initialRung(Ladder ladder) {
            return LZ4;
        }

        @Override
        public Decision decide(Observation observation) {
            decisions.incrementAndGet();
            return Decision.of(LZ4, reason);
        }
    }

    @Test
    void aControllerStillAtItsStartupRungKeepsTheWriterOneFrameAheadOfTheSink() throws Exception {
        byte[] data = DataKind.TEXT.generate(BLOCKS * BLOCK);

        int startup = blocksCompressedWhileTheSinkHolds(data, new Counting(Reason.STARTUP));
        int measured = blocksCompressedWhileTheSinkHolds(data, new Counting(Reason.BEST));

        // The sink takes a few hundred kilobytes of frames, then holds one write.
        assertThat(startup).isLessThan(BLOCKS / 2);
        assertThat(measured).isEqualTo(BLOCKS);
    }

    /** Writes {@code data} while the sink holds, counts the blocks compressed, then checks the stream. */
    private static int blocksCompressedWhileTheSinkHolds(byte[] data, Counting controller) throws Exception {
        HeldOnceShown sink = new HeldOnceShown();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller).fifoCapacity(8 << 20)
                .build(sink);
        Thread writer = new Thread(() -> {
            try {
                out.write(data);
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        int settled = -1;
        while (settled != controller.decisions.get() && writer.isAlive()) {
            settled = controller.decisions.get();
            writer.join(200); // no block compressed in 200 ms: the writer waits for the sink
        }
        int compressed = controller.decisions.get();
        sink.held.open.countDown();
        writer.join();
        out.close();
        try (AdaptiveInputStream in = AdaptiveInputStream.builder().build(new ByteArrayInputStream(sink.received()))) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
        return compressed;
    }
}
