package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.format.ChecksumMismatchException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reads with an array that holds a whole block, {@code skip} and {@code transferTo} take other
 * paths through the decoded blocks than small reads do; each must deliver the same bytes and
 * fail on the same damage.
 */
class ReadPathsTest {

    private static final int BLOCK = 16 * 1024;
    private static final byte[] DATA = DataKind.TEXT.generate(100_000);
    private static final byte UNTOUCHED = (byte) 0xA5;

    private static byte[] encode(int rung, boolean history) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder("raw,lz4,zstd:3")
                .controller(() -> new FixedController(rung)).blockSize(BLOCK).history(history).build(sink)) {
            out.write(DATA);
        }
        return sink.toByteArray();
    }

    private static AdaptiveInputStream reader(byte[] stream) {
        return new AdaptiveInputStream(new ByteArrayInputStream(stream));
    }

    @ParameterizedTest(name = "rung {0}, history {1}")
    @CsvSource({"0, false", "1, false", "2, false", "2, true"})
    void readsIntoAnArrayLargerThanABlockReturnWholeBlocksAndTouchNothingPastTheCount(int rung, boolean history)
            throws IOException {
        byte[] stream = encode(rung, history);
        byte[] buffer = new byte[3 * BLOCK];
        ByteArrayOutputStream decoded = new ByteArrayOutputStream();
        try (InputStream in = reader(stream)) {
            int n;
            Arrays.fill(buffer, UNTOUCHED);
            while ((n = in.read(buffer, 7, buffer.length - 7)) != -1) {
                // A raw block may hold a block header's length less (AdaptiveOutputStream's raw frames).
                if (decoded.size() + n < DATA.length) {
                    assertThat(n).as("a whole block a read").isBetween(BLOCK - FrameFormat.BLOCK_HEADER_LENGTH, BLOCK);
                }
                assertThat(buffer[6]).isEqualTo(UNTOUCHED);
                for (int i = 7 + n; i < buffer.length; i++) {
                    assertThat(buffer[i]).as("byte %d past the count", i).isEqualTo(UNTOUCHED);
                }
                decoded.write(buffer, 7, n);
                Arrays.fill(buffer, UNTOUCHED);
            }
        }
        assertThat(decoded.toByteArray()).isEqualTo(DATA);
    }

    @Test
    void smallAndWholeBlockReadsMixedDeliverTheStreamInOrder() throws IOException {
        byte[] stream = encode(0, false);
        ByteArrayOutputStream decoded = new ByteArrayOutputStream();
        try (InputStream in = reader(stream)) {
            int[] lengths = {100, BLOCK, 1, 2 * BLOCK, BLOCK - 1, 5000};
            byte[] buffer = new byte[2 * BLOCK];
            for (int i = 0, n; (n = in.read(buffer, 0, lengths[i % lengths.length])) != -1; i++) {
                decoded.write(buffer, 0, n);
            }
        }
        assertThat(decoded.toByteArray()).isEqualTo(DATA);
    }

    @ParameterizedTest(name = "rung {0}")
    @CsvSource({"0", "2"})
    void aDamagedBlockReadStraightIntoTheCallersArrayFailsAndKeepsFailing(int rung) throws IOException {
        byte[] stream = encode(rung, false);
        // The second block's payload: a raw one has its bytes as is, a compressed one its literals.
        int secondBlock = FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH
                + FrameFormat.getInt(stream, FrameFormat.STREAM_HEADER_LENGTH + 8) + FrameFormat.BLOCK_HEADER_LENGTH;
        stream[secondBlock + 40] ^= 0x01;
        byte[] buffer = new byte[2 * BLOCK];
        try (InputStream in = reader(stream)) {
            int first = in.read(buffer);
            assertThat(first).isBetween(BLOCK - FrameFormat.BLOCK_HEADER_LENGTH, BLOCK);
            assertThat(Arrays.copyOf(buffer, first)).isEqualTo(Arrays.copyOf(DATA, first));
            // Raw fails its checksum; zstd may already fail to decode.
            Throwable failure = catchThrowable(() -> in.read(buffer));
            assertThat(failure).isInstanceOf(rung == 0 ? ChecksumMismatchException.class : CorruptFrameException.class);
            assertThat(catchThrowable(() -> in.read(buffer, 0, 10))).isSameAs(failure);
        }
    }

    @Test
    void skipMovesWithinAndAcrossBlocksAndStopsAtTheEnd() throws IOException {
        byte[] stream = encode(1, false);
        try (InputStream in = reader(stream)) {
            assertThat(in.skip(0)).isZero();
            assertThat(in.skip(-5)).isZero();
            assertThat(in.skip(10)).isEqualTo(10);
            assertThat(in.read()).isEqualTo(DATA[10] & 0xFF);
            long far = 3L * BLOCK + 123;
            assertThat(in.skip(far)).isEqualTo(far);
            int at = (int) (11 + far);
            byte[] next = new byte[50];
            assertThat(in.readNBytes(next, 0, next.length)).isEqualTo(next.length);
            assertThat(next).isEqualTo(Arrays.copyOfRange(DATA, at, at + next.length));
            assertThat(in.skip(Long.MAX_VALUE)).isEqualTo(DATA.length - at - next.length);
            assertThat(in.skip(1)).isZero();
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void skipVerifiesTheBlocksItPasses() throws IOException {
        byte[] stream = encode(0, false);
        stream[stream.length / 2] ^= 0x01;
        try (InputStream in = reader(stream)) {
            assertThatThrownBy(() -> in.skip(DATA.length)).isInstanceOf(ChecksumMismatchException.class);
        }
    }

    @ParameterizedTest(name = "rung {0}, history {1}")
    @CsvSource({"0, false", "2, false", "2, true"})
    void transferToWritesTheRestOfTheStream(int rung, boolean history) throws IOException {
        byte[] stream = encode(rung, history);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (InputStream in = reader(stream)) {
            byte[] head = in.readNBytes(1000);
            assertThat(in.transferTo(sink)).isEqualTo(DATA.length - head.length);
            assertThat(in.transferTo(sink)).isZero();
        }
        assertThat(sink.toByteArray()).isEqualTo(Arrays.copyOfRange(DATA, 1000, DATA.length));
    }

    @Test
    void skipAndTransferToFailOnAClosedStream() throws IOException {
        InputStream in = reader(encode(0, false));
        in.close();
        assertThatThrownBy(() -> in.skip(1)).isInstanceOf(IOException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> in.transferTo(new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class).hasMessageContaining("closed");
    }
}
