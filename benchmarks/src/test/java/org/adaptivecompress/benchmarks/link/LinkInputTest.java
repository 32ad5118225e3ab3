package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LinkInputTest {

    private static final byte[] BLOCK = {1, 2, 3, 4, 5};

    @Test
    void writesTheBlockRepeatedToTheLength() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        new LinkInput(BLOCK, 12).writeTo(out);

        assertThat(out.toByteArray()).containsExactly(1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2);
    }

    @Test
    void matchesReceivedBytesAcrossTheSeamsOfTheRepetition() {
        LinkInput input = new LinkInput(BLOCK, 12);

        assertThat(input.matches(3, new byte[] {4, 5, 1, 2, 3, 4}, 6)).isTrue();
        assertThat(input.matches(3, new byte[] {4, 5, 9, 2, 3, 4}, 6)).isFalse();
        assertThat(input.matches(10, new byte[] {1, 2, 3}, 3)).as("one byte past the end").isFalse();
    }

    @Test
    void countsRepetitionsAndCutsTheFirstBlockForProbes() {
        LinkInput input = new LinkInput(BLOCK, 12);

        assertThat(input.repetitions()).isEqualTo(2.4);
        assertThat(input.firstBlock().length()).isEqualTo(5);
        assertThat(LinkInput.of(BLOCK).repetitions()).isEqualTo(1.0);
    }

    @Test
    void writesLargeBlocksInApplicationSizedPieces() throws Exception {
        byte[] block = new byte[LinkInput.WRITE_SIZE * 2 + 7];
        Arrays.fill(block, (byte) 9);
        CountingWrites out = new CountingWrites();

        new LinkInput(block, block.length).writeTo(out);

        assertThat(out.writes).isEqualTo(3);
        assertThat(out.size()).isEqualTo(block.length);
    }

    private static final class CountingWrites extends ByteArrayOutputStream {
        int writes;

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            writes++;
            super.write(b, off, len);
        }
    }
}
