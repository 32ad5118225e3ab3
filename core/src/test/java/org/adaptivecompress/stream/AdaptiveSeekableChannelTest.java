package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading a file at any content offset, from the reset point before it. */
class AdaptiveSeekableChannelTest {

    private static final int RESET_INTERVAL = 1 << 20;
    private static final byte[] CONTENT = DataKind.MIXED.generate(12 << 20);

    @TempDir
    Path dir;

    private Path write(byte[] content, boolean history, String controller) throws IOException {
        Path file = dir.resolve("data.adc");
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(controller).history(history)
                .resetInterval(history ? RESET_INTERVAL : 0).build(Files.newOutputStream(file))) {
            out.write(content);
        }
        return file;
    }

    @Test
    void randomSeeksReadWhatIsThereInAStreamWithHistories() throws IOException {
        Path file = write(CONTENT, true, "fixed:3");
        Random random = new Random(7);
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(file))) {
            for (int i = 0; i < 200; i++) {
                int at = random.nextInt(CONTENT.length);
                int length = Math.min(CONTENT.length - at, 1 + random.nextInt(300_000));
                assertThat(readAt(in, at, length)).as("%d bytes at %d", length, at)
                        .isEqualTo(Arrays.copyOfRange(CONTENT, at, at + length));
            }
            assertThat(in.size()).isEqualTo(CONTENT.length);
        }
    }

    @Test
    void aSeekDecodesNoMoreThanTheResetIntervalBeforeIt() throws IOException {
        Path file = write(CONTENT, true, "fixed:3");
        try (CountingChannel counted = new CountingChannel(FileChannel.open(file));
                AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(counted)) {
            in.size(); // walks the headers: 28 bytes a block
            long walk = counted.bytesRead;
            assertThat(walk).isLessThan(CONTENT.length / 1000);
            int at = CONTENT.length / 2 + 12_345;
            assertThat(readAt(in, at, 100)).isEqualTo(Arrays.copyOfRange(CONTENT, at, at + 100));
            // A reset interval of content compresses to less than itself; the file is far larger.
            assertThat(counted.bytesRead - walk).isLessThanOrEqualTo(RESET_INTERVAL + (1 << 17));
            assertThat(Files.size(file)).isGreaterThan(4L * RESET_INTERVAL);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed:0", "fixed:1", "model"})
    void everyBlockOfAStreamWithoutHistoriesIsAStart(String controller) throws IOException {
        Path file = write(CONTENT, false, controller);
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(file))) {
            assertThat(readAt(in, CONTENT.length - 5, 5)).isEqualTo(Arrays.copyOfRange(CONTENT, CONTENT.length - 5,
                    CONTENT.length));
            in.position(0);
            assertThat(Channels.newInputStream(in).readAllBytes()).isEqualTo(CONTENT);
        }
    }

    @Test
    void concatenatedStreamsReadAsOneContent() throws IOException {
        byte[] first = Arrays.copyOf(CONTENT, 3 << 20);
        byte[] second = Arrays.copyOfRange(CONTENT, 3 << 20, 5 << 20);
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        for (byte[] part : new byte[][] {first, second}) {
            both.write(Files.readAllBytes(write(part, true, "fixed:4")));
        }
        Path file = Files.write(dir.resolve("both.adc"), both.toByteArray());
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(file))) {
            assertThat(in.size()).isEqualTo(5 << 20);
            int at = (3 << 20) - 1000;
            assertThat(readAt(in, at, 3000)).isEqualTo(Arrays.copyOfRange(CONTENT, at, at + 3000));
            assertThat(readAt(in, (4 << 20) + 7, 10)).isEqualTo(Arrays.copyOfRange(CONTENT, (4 << 20) + 7,
                    (4 << 20) + 17));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1-zstd-3-history.adc", "v2-mixed.adc", "v3-zstd-3-reset.adc", "v3-xz-6.adc"})
    void readsEveryVersionAsTheStreamReaderDoes(String vector) throws IOException {
        byte[] bytes;
        try (InputStream v = getClass().getResourceAsStream("/vectors/" + vector)) {
            bytes = v.readAllBytes();
        }
        Path file = Files.write(dir.resolve(vector), bytes);
        byte[] expected;
        try (AdaptiveInputStream in = new AdaptiveInputStream(Files.newInputStream(file))) {
            expected = in.readAllBytes();
        }
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(file))) {
            assertThat(in.size()).isEqualTo(expected.length);
            int at = expected.length * 3 / 5;
            assertThat(readAt(in, at, expected.length - at)).isEqualTo(Arrays.copyOfRange(expected, at,
                    expected.length));
        }
    }

    @Test
    void pastTheEndReadsReturnEndOfFileAndWritesAreRefused() throws IOException {
        Path file = write(Arrays.copyOf(CONTENT, 100_000), true, "fixed:2");
        AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(file));
        assertThat(in.position(100_000).read(ByteBuffer.allocate(10))).isEqualTo(-1);
        assertThat(in.position(5_000_000).read(ByteBuffer.allocate(10))).isEqualTo(-1);
        assertThat(in.position(99_999).read(ByteBuffer.allocate(10))).isEqualTo(1);
        assertThatThrownBy(() -> in.position(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> in.write(ByteBuffer.allocate(1))).isInstanceOf(NonWritableChannelException.class);
        assertThatThrownBy(() -> in.truncate(0)).isInstanceOf(NonWritableChannelException.class);
        in.close();
        assertThat(in.isOpen()).isFalse();
        assertThatThrownBy(() -> in.read(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void aTruncatedOrDamagedFileFailsWithATypedError() throws IOException {
        byte[] whole = Files.readAllBytes(write(CONTENT, true, "fixed:3"));
        Path cut = Files.write(dir.resolve("cut.adc"), Arrays.copyOf(whole, whole.length - 1000));
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(cut))) {
            assertThat(readAt(in, 1000, 10)).isEqualTo(Arrays.copyOfRange(CONTENT, 1000, 1010));
            assertThatThrownBy(in::size).isInstanceOf(TruncatedStreamException.class);
        }
        byte[] damaged = whole.clone();
        damaged[payloadMiddleOfBlockHolding(whole, CONTENT.length / 2)] ^= 0x10;
        Path bad = Files.write(dir.resolve("bad.adc"), damaged);
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(FileChannel.open(bad))) {
            Throwable e = catchThrowable(() -> readAt(in, CONTENT.length / 2, CONTENT.length / 2));
            assertThat(e).isInstanceOf(FrameFormatException.class);
            assertThat(readAt(in, 10, 10)).as("still reads elsewhere").isEqualTo(Arrays.copyOfRange(CONTENT, 10, 20));
        }
    }

    /** The offset of the middle of the payload of the block of {@code stream} that holds content offset {@code content}. */
    private static int payloadMiddleOfBlockHolding(byte[] stream, long content) {
        for (int frame : Frames.starts(stream)) {
            long from = FrameFormat.getLong(stream, frame + 16);
            if (from <= content && content < from + FrameFormat.getInt(stream, frame + 4)) {
                return frame + FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(stream, frame + 8) / 2;
            }
        }
        throw new AssertionError("no block holds content offset " + content);
    }

    private static byte[] readAt(AdaptiveSeekableChannel in, long at, int length) throws IOException {
        in.position(at);
        ByteBuffer dst = ByteBuffer.allocate(length);
        while (dst.hasRemaining()) {
            if (in.read(dst) < 0) {
                break;
            }
        }
        return Arrays.copyOf(dst.array(), dst.position());
    }

    /** A file channel that counts the bytes read through it. */
    private static final class CountingChannel implements SeekableByteChannel {
        private final SeekableByteChannel in;
        long bytesRead;

        CountingChannel(SeekableByteChannel in) {
            this.in = in;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int n = in.read(dst);
            bytesRead += Math.max(0, n);
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() throws IOException {
            return in.position();
        }

        @Override
        public SeekableByteChannel position(long p) throws IOException {
            in.position(p);
            return this;
        }

        @Override
        public long size() throws IOException {
            return in.size();
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return in.isOpen();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
