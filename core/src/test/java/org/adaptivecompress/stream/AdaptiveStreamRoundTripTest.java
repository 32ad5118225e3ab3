package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Channels;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class AdaptiveStreamRoundTripTest {

    private static final Ladder LADDER = Ladder.parse("raw,lz4,lz4hc:9,zstd:-3,zstd:3,zstd:19,xz:6,deflate:6");
    private static final int SIZE = 300 * 1024;
    private static final int BLOCK = 64 * 1024;

    static Stream<Arguments> everyRungOnEveryKind() {
        return IntStream.range(0, LADDER.size()).boxed()
                .flatMap(r -> Arrays.stream(DataKind.values()).map(k -> Arguments.of(r, k)));
    }

    @ParameterizedTest(name = "rung {0} on {1}")
    @MethodSource("everyRungOnEveryKind")
    void everyRungRoundTripsEveryKindBitExact(int rung, DataKind kind) throws IOException {
        byte[] data = kind.generate(SIZE);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder()
                .ladder(LADDER).controller(() -> new FixedController(rung)).blockSize(BLOCK).build(sink);
        out.write(data);
        out.close();

        assertThat(decode(sink.toByteArray())).isEqualTo(data);
        CompressionStatistics stats = out.statistics();
        assertThat(stats.totalBytesIn()).isEqualTo(SIZE);
        assertThat(stats.blocks(rung) + (rung == 0 ? 0 : stats.blocks(0))).as("blocks at rung %d or raw", rung)
                .isEqualTo(stats.totalBlocks());
        if (rung > 0 && kind != DataKind.RANDOM && kind != DataKind.JPEG) {
            assertThat(stats.blocks(rung)).as("blocks stored at rung %d", rung).isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(DataKind.class)
    void randomWriteSizesAndFlushesWithTheRungForcedToChangeEveryBlock(DataKind kind) throws IOException {
        byte[] data = kind.generate(3 << 20);
        SplittableRandom random = new SplittableRandom(kind.ordinal());
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ScriptedController controller = ScriptedController.everyRung(LADDER.size());
        AdaptiveOutputStream out = AdaptiveOutputStream.builder()
                .ladder(LADDER).controller(() -> controller).blockSize(BLOCK).fifoCapacity(256 * 1024).build(sink);
        writeInPieces(out, data, () -> writeSize(random), () -> random.nextInt(8) == 0);
        out.close();

        assertThat(decode(sink.toByteArray())).isEqualTo(data);
        assertThat(out.statistics().rungChanges()).isGreaterThan(LADDER.size());
    }

    @Test
    void framesLargerThanTheFifoGoThroughInPiecesAndInOrder() throws IOException {
        // Raw frames are put as header plus the block's own bytes; a 1 KiB FIFO makes both
        // parts wait for room half-way, while the rung alternates raw and compressed.
        byte[] data = DataKind.TEXT.generate(1 << 20);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ScriptedController controller = new ScriptedController(0, 1, 0, 0, 2);
        AdaptiveOutputStream out = AdaptiveOutputStream.builder()
                .ladder(LADDER).controller(() -> controller).blockSize(BLOCK).fifoCapacity(1024).build(sink);
        SplittableRandom random = new SplittableRandom(7);
        writeInPieces(out, data, () -> writeSize(random), () -> random.nextInt(16) == 0);
        out.close();

        assertThat(decode(sink.toByteArray())).isEqualTo(data);
        assertThat(out.statistics().blocks(0)).isPositive();
    }

    @ParameterizedTest(name = "rung {0}")
    @ValueSource(ints = {0, 1})
    void aFlushedBlockIsReadableBeforeTheWriterSendsAnythingMore(int rung) throws Exception {
        // The reader takes the next block's header in the same read as a payload when it is
        // there; it must never wait for it, or a request/response protocol would hang.
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept();
                InputStream in = new AdaptiveInputStream(accepted.getInputStream())) {
            AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder(LADDER)
                    .controller(() -> new FixedController(rung)).build(client.getOutputStream());
            byte[] first = DataKind.TEXT.generate(1000);
            out.write(first);
            out.flush();
            byte[] got = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> in.readNBytes(first.length));
            assertThat(got).isEqualTo(first);
            out.write(first);
            out.close();
            assertThat(in.readAllBytes()).isEqualTo(first);
        }
    }

    /** Mostly small writes, some up to 1 MiB. */
    private static int writeSize(SplittableRandom random) {
        switch (random.nextInt(4)) {
            case 0:
                return 1;
            case 1:
                return 1 + random.nextInt(100);
            case 2:
                return 1 + random.nextInt(BLOCK * 2);
            default:
                return 1 + random.nextInt(1 << 20);
        }
    }

    @Test
    void anEmptyStreamIsAHeaderAndAnEndMarker() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        new AdaptiveOutputStream(sink).close();

        assertThat(sink.size()).isEqualTo(FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH);
        assertThat(decode(sink.toByteArray())).isEmpty();
    }

    @Test
    void aSingleByteRoundTrips() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(sink)) {
            out.write(0xA5);
        }
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
            assertThat(in.read()).isEqualTo(0xA5);
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void readsAfterCloseFailEvenWithDecodedBytesLeft() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(sink)) {
            out.write("several bytes".getBytes());
        }
        AdaptiveInputStream in = new AdaptiveInputStream(new ByteArrayInputStream(sink.toByteArray()));
        assertThat(in.read()).isEqualTo('s');
        in.close();

        assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessage("stream is closed");
        assertThatThrownBy(() -> in.read(new byte[4], 0, 4)).hasMessage("stream is closed");
        assertThatThrownBy(in::available).hasMessage("stream is closed");
        in.close();
    }

    @Test
    void worksOverChannels() throws IOException {
        byte[] data = DataKind.JSON_EVENTS.generate(1 << 20);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().build(Channels.newChannel(sink))) {
            out.write(data);
        }
        try (InputStream in = AdaptiveInputStream.builder()
                .build(Channels.newChannel(new ByteArrayInputStream(sink.toByteArray())))) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
    }

    @Test
    void stopsAtTheEndMarkerLeavingWhatFollows() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(sink)) {
            out.write("first".getBytes());
        }
        sink.write("trailer".getBytes());
        ByteArrayInputStream raw = new ByteArrayInputStream(sink.toByteArray());
        AdaptiveInputStream in = new AdaptiveInputStream(raw);

        assertThat(new String(in.readAllBytes())).isEqualTo("first");
        assertThat(new String(raw.readAllBytes())).isEqualTo("trailer");
    }

    @Test
    void readsConcatenatedStreamsAsOneWhenAsked() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        for (String part : new String[] {"one,", "two,", "three"}) {
            try (AdaptiveOutputStream out = new AdaptiveOutputStream(new NonClosing(sink))) {
                out.write(part.getBytes());
            }
        }
        try (InputStream in = AdaptiveInputStream.builder().concatenated(true)
                .build(new ByteArrayInputStream(sink.toByteArray()))) {
            assertThat(new String(in.readAllBytes())).isEqualTo("one,two,three");
        }
    }

    @ParameterizedTest(name = "history {0}, {1} worker(s)")
    @MethodSource("historiesAndWorkers")
    void finishEndsAStreamAndTheNextWriteBeginsAnotherOnTheSamePipeline(boolean history, int workers)
            throws IOException {
        byte[] data = DataKind.TEXT.generate(SIZE);
        int[] cuts = {0, 1000, 1000, 200 * 1024, SIZE}; // the second stream is empty
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(BLOCK).history(history)
                .maxWorkers(workers).build(sink);
        for (int i = 0; i + 1 < cuts.length; i++) {
            out.write(data, cuts[i], cuts[i + 1] - cuts[i]);
            out.finish();
        }
        int finished = sink.size();
        out.close();

        assertThat(sink.size()).as("close after finish writes nothing more").isEqualTo(finished);
        assertThat(out.statistics().totalBytesIn()).isEqualTo(SIZE);
        try (InputStream in = AdaptiveInputStream.builder().concatenated(true)
                .build(new ByteArrayInputStream(sink.toByteArray()))) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
            assertThat(in.readAllBytes()).as("one stream at a time").isEqualTo(Arrays.copyOf(data, cuts[1]));
        }
    }

    static Stream<Arguments> historiesAndWorkers() {
        return Stream.of(Arguments.of(false, 1), Arguments.of(true, 1), Arguments.of(false, 2),
                Arguments.of(true, 2));
    }

    @Test
    void finishWithNothingWrittenSinceWritesAnEmptyStream() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(sink)) {
            out.finish();
            out.finish();
        }

        assertThat(sink.size()).isEqualTo(2 * (FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH));
        try (InputStream in = AdaptiveInputStream.builder().concatenated(true)
                .build(new ByteArrayInputStream(sink.toByteArray()))) {
            assertThat(in.readAllBytes()).isEmpty();
        }
    }

    /**
     * Writes {@code data} in pieces of {@code pieceSize} bytes (a single byte through
     * {@code write(int)}), flushing after a piece whenever {@code flushNow} says so.
     */
    static void writeInPieces(OutputStream out, byte[] data, IntSupplier pieceSize, BooleanSupplier flushNow)
            throws IOException {
        int position = 0;
        while (position < data.length) {
            int n = Math.min(data.length - position, pieceSize.getAsInt());
            if (n == 1) {
                out.write(data[position]);
            } else {
                out.write(data, position, n);
            }
            position += n;
            if (flushNow.getAsBoolean()) {
                out.flush();
            }
        }
    }

    static byte[] decode(byte[] stream) throws IOException {
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(java.io.OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() {
            // keep the shared buffer open for the next stream
        }
    }
}
