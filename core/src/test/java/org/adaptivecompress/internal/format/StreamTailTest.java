package org.adaptivecompress.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.adaptivecompress.internal.format.StreamTail;
import org.junit.jupiter.api.Test;

/** The tail holds exactly the stream's last bytes, however they were appended. */
class StreamTailTest {

    @Test
    void holdsTheLastBytesAcrossWrapsLargeAppendsAndBuffers() {
        Random random = new Random(11);
        StreamTail tail = new StreamTail(1000);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int length : new int[] {0, 1, 300, 999, 1000, 1001, 2500, 7, 640, 3333, 1}) {
            byte[] piece = new byte[length];
            random.nextBytes(piece);
            if (length % 2 == 0) {
                tail.append(piece, 0, length);
            } else {
                ByteBuffer direct = ByteBuffer.allocateDirect(length + 5).put(new byte[5]).put(piece).flip();
                direct.position(5);
                tail.append(direct);
                assertThat(direct.position()).as("not consumed").isEqualTo(5);
            }
            all.write(piece, 0, length);
            byte[] stream = all.toByteArray();
            assertThat(tail.size()).isEqualTo(stream.length);
            for (int max : new int[] {0, 10, 512, 1000, Integer.MAX_VALUE}) {
                int held = Math.min(Math.min(stream.length, 1000), max);
                assertThat(tail.snapshot(max)).as("after %d bytes, last %d", stream.length, max)
                        .isEqualTo(Arrays.copyOfRange(stream, stream.length - held, stream.length));
            }
        }
        tail.clear();
        assertThat(tail.isEmpty()).isTrue();
        assertThat(tail.size()).isZero();
        assertThat(tail.snapshot(Integer.MAX_VALUE)).isEmpty();
    }

    @Test
    void aSnapshotFillsAnArrayOfItsLengthAndMakesANewOneOtherwise() {
        byte[] stream = new byte[2500];
        new Random(12).nextBytes(stream);
        StreamTail tail = new StreamTail(1000);
        tail.append(stream, 0, stream.length);
        byte[] reused = new byte[1000];

        assertThat(tail.snapshot(Integer.MAX_VALUE, reused)).isSameAs(reused)
                .isEqualTo(Arrays.copyOfRange(stream, 1500, 2500));
        byte[] shorter = tail.snapshot(512, reused);
        assertThat(shorter).isNotSameAs(reused).isEqualTo(Arrays.copyOfRange(stream, 1988, 2500));
        assertThat(tail.snapshot(512, null)).isEqualTo(shorter);
    }
}
