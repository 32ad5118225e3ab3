package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.adaptivecompress.control.Observation;
import org.junit.jupiter.api.Test;

class WriterCostTest {

    private final WriterCost writer = new WriterCost();
    private long now;

    /** A block of 1 MB whose writer spent {@code ownMs} of its own, {@code codecMs} compressing and {@code waitMs} waiting. */
    private void block(int workers, long ownMs, long codecMs, long waitMs) {
        now += (ownMs + codecMs + waitMs) * MS;
        writer.learn(Observation.builder().rung(3).topRung(6).block(1_000_000, 250_000, false)
                .compressNanos(codecMs * MS).writerWaitNanos(waitMs * MS).workers(workers).nanoTime(now).build());
    }

    @Test
    void withOneThreadTheWritersOwnTimeAddsToTheCodecs() {
        for (int i = 0; i < 40; i++) {
            block(1, 2, 4, 10); // 2 ns a byte of its own; the wait is the link's, not the writer's
        }
        // A codec at 250 MB/s (4 ns a byte) plus 2 ns a byte: 6 ns, 167 MB/s.
        assertThat(writer.speed(250e6)).isCloseTo(1e9 / 6, within(1e6));
    }

    @Test
    void withWorkersTheSlowerOfWriterAndCodecBounds() {
        for (int i = 0; i < 40; i++) {
            block(2, 2, 0, 0);
        }
        assertThat(writer.speed(250e6)).isCloseTo(250e6, within(1e6));
        assertThat(writer.speed(1e9)).as("the writer's 2 ns a byte").isCloseTo(500e6, within(5e6));
    }

    @Test
    void knowsNothingOfTheWriterBeforeTwoBlocks() {
        assertThat(writer.speed(250e6)).isCloseTo(250e6, within(1.0));
    }
}
