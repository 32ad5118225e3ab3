package org.adaptivecompress.stream;

import static org.adaptivecompress.stream.AdaptiveStreamRoundTripTest.decode;
import static org.adaptivecompress.stream.AdaptiveStreamRoundTripTest.writeInPieces;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class ParallelCompressionTest {

    private static final Ladder LADDER = Ladder.parse("raw,lz4,zstd:1,zstd:3,zstd:9,xz:6,deflate:6");
    private static final int BLOCK = 32 * 1024;
    private static final int SIZE = 1 << 20;

    static Stream<Arguments> workersAndKinds() {
        return Stream.of(2, 4).flatMap(w -> Arrays.stream(DataKind.values()).map(k -> Arguments.of(w, k)));
    }

    /** A stream whose worker count moves every block, so blocks finish out of order under every k. */
    private static AdaptiveOutputStream.Builder restless(int maxWorkers) {
        return AdaptiveOutputStream.builder().ladder(LADDER).blockSize(BLOCK).maxWorkers(maxWorkers).tunerWindow(1, 0);
    }

    @ParameterizedTest(name = "{0} workers, {1}")
    @MethodSource("workersAndKinds")
    void roundTripsEveryKindBitExactWithOddWritesSingleBytesAndFlushes(int maxWorkers, DataKind kind)
            throws IOException {
        CompressionStatistics stats = roundTripInOddPieces(restless(maxWorkers), kind,
                new SplittableRandom(kind.ordinal() * 31L + maxWorkers));

        assertThat(stats.workers()).isBetween(1, maxWorkers);
    }

    /**
     * With histories, blocks the writer compresses itself (one worker tuned) and blocks the
     * workers compress (more) take turns as the count moves every block: histories lent to
     * workers must be back before the writer compresses, and every block must decode.
     */
    @ParameterizedTest(name = "{0} workers, {1}")
    @MethodSource("workersAndRepeatingKinds")
    void withHistoriesTheWritersBlocksAndTheWorkersInterleaveBitExact(int maxWorkers, DataKind kind)
            throws IOException {
        roundTripInOddPieces(restless(maxWorkers).history(true), kind,
                new SplittableRandom(kind.ordinal() * 17L + maxWorkers));
    }

    /**
     * Writes {@value #SIZE} bytes of {@code kind} through the default controller in pieces of
     * {@link #writeSize} with a flush now and then, asserts they decode bit-exact and were all
     * counted, and returns the stream's statistics.
     */
    private static CompressionStatistics roundTripInOddPieces(AdaptiveOutputStream.Builder builder, DataKind kind,
            SplittableRandom random) throws IOException {
        byte[] data = kind.generate(SIZE);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AdaptiveOutputStream out = builder.controller("model").fifoCapacity(64 * 1024).build(sink);
        writeInPieces(out, data, () -> writeSize(random), () -> random.nextInt(16) == 0);
        out.close();

        assertThat(decode(sink.toByteArray())).isEqualTo(data);
        assertThat(out.statistics().totalBytesIn()).isEqualTo(SIZE);
        return out.statistics();
    }

    static Stream<Arguments> workersAndRepeatingKinds() {
        return Stream.of(2, 4).flatMap(w -> Stream.of(DataKind.TEXT, DataKind.HTML, DataKind.PROTOBUF)
                .map(k -> Arguments.of(w, k)));
    }

    /** Single bytes, odd sizes around the block size, and some writes of several blocks. */
    private static int writeSize(SplittableRandom random) {
        switch (random.nextInt(5)) {
            case 0:
                return 1;
            case 1:
                return 1 + random.nextInt(100);
            case 2:
                return BLOCK - 1 + random.nextInt(3);
            case 3:
                return 1 + random.nextInt(BLOCK * 2);
            default:
                return 1 + random.nextInt(BLOCK * 9);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {2, 4})
    void framesOfEveryRungInterleaveInBlockOrderAndTheControllerSeesThemInThatOrder(int maxWorkers)
            throws IOException {
        byte[] data = DataKind.TEXT.generate(3 << 20);
        ScriptedController controller = ScriptedController.everyRung(LADDER.size());
        List<String> changes = new CopyOnWriteArrayList<>();
        List<Thread> listenerThreads = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AdaptiveOutputStream out = restless(maxWorkers).controller(() -> controller)
                .listener((o, d) -> {
                    if (d.rung() != o.rung()) {
                        changes.add(o.rung() + "->" + d.rung());
                    }
                    listenerThreads.add(Thread.currentThread());
                }).build(sink);
        out.write(data);
        out.close();

        byte[] stream = sink.toByteArray();
        assertThat(decode(stream)).isEqualTo(data);
        List<int[]> frames = frames(stream);
        assertThat(frames.stream().map(f -> f[0]).collect(Collectors.toSet()))
                .as("codec ids of the frames").hasSizeGreaterThanOrEqualTo(4);
        List<Observation> seen = controller.observations();
        assertThat(seen).hasSameSizeAs(frames);
        for (int i = 0; i < frames.size(); i++) {
            assertThat(new int[] {seen.get(i).uncompressedLength(), seen.get(i).storedLength()})
                    .as("block %d as the controller saw it", i).containsExactly(frames.get(i)[1], frames.get(i)[2]);
            assertThat(seen.get(i).workers()).isBetween(1, maxWorkers);
        }
        assertThat(seen).as("the tuner moved past one worker").anyMatch(o -> o.workers() > 1);
        assertThat(changes).isNotEmpty();
        assertThat(new HashSet<>(listenerThreads)).as("the listener runs on the writing thread")
                .containsExactly(Thread.currentThread());
    }

    /** Each block frame as {codec id, uncompressed length, stored length}; the end marker left out. */
    private static List<int[]> frames(byte[] stream) {
        List<int[]> frames = new ArrayList<>();
        int position = FrameFormat.STREAM_HEADER_LENGTH;
        while ((stream[position] & 0xFF) != FrameFormat.END_OF_STREAM) {
            int stored = FrameFormat.getInt(stream, position + 8);
            frames.add(new int[] {stream[position] & 0xFF, FrameFormat.getInt(stream, position + 4), stored});
            position += FrameFormat.BLOCK_HEADER_LENGTH + stored;
        }
        assertThat(position + FrameFormat.BLOCK_HEADER_LENGTH).isEqualTo(stream.length);
        return frames;
    }

    @Test
    void anEmptyStreamAndASingleByteRoundTripWithWorkers() throws IOException {
        ByteArrayOutputStream empty = new ByteArrayOutputStream();
        AdaptiveOutputStream.builder().maxWorkers(4).build(empty).close();
        assertThat(empty.size()).isEqualTo(FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH);
        assertThat(decode(empty.toByteArray())).isEmpty();

        ByteArrayOutputStream one = new ByteArrayOutputStream();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().maxWorkers(4).build(one);
        out.write(0xA5);
        out.close();
        assertThat(decode(one.toByteArray())).containsExactly(0xA5);
        assertThat(out.statistics().totalBytesIn()).isEqualTo(1);
    }

    @Test
    void flushReturnsOnlyOnceEveryBlockInFlightReachedTheSink() throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        OutputStream slowSink = new RateLimitedOutputStream(received, 20_000_000);
        byte[] data = DataKind.JSON_EVENTS.generate(10 * BLOCK + 123);
        try (AdaptiveOutputStream out = restless(4).controller(() -> new FixedController(5)).build(slowSink)) {
            out.write(data);
            out.flush();
            AdaptiveInputStream in = new AdaptiveInputStream(new ByteArrayInputStream(received.toByteArray()));
            assertThat(in.readNBytes(data.length)).isEqualTo(data);
        }
    }

    @Test
    void aFailingCodecSurfacesAsAnIOExceptionWithoutHangingAndNoEndMarkerIsWritten() throws Exception {
        AtomicInteger blocks = new AtomicInteger();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AtomicInteger closes = new AtomicInteger();
        OutputStream countingSink = new OutputStream() {
            @Override
            public void write(int b) {
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                sink.write(b, off, len);
            }

            @Override
            public void close() {
                closes.incrementAndGet();
            }
        };
        List<Thread> threads = new CopyOnWriteArrayList<>();
        AdaptiveOutputStream out = restless(4).threadFactory(r -> {
            Thread t = new Thread(r, "test-thread-" + threads.size());
            threads.add(t);
            return t;
        }).beforeEncode(() -> {
            if (blocks.incrementAndGet() == 5) {
                throw new IllegalStateException("codec exploded");
            }
        }).build(countingSink);
        byte[] data = DataKind.LOG_LINES.generate(2 << 20);

        Throwable duringWrites = catchThrowable(() -> {
            for (int i = 0; i < data.length; i += 1000) {
                out.write(data, i, Math.min(1000, data.length - i));
            }
            out.flush();
        });
        assertThat(duringWrites).isInstanceOf(IOException.class).hasRootCauseMessage("codec exploded");
        assertThatThrownBy(() -> out.write(1)).as("every later call throws at once")
                .isInstanceOf(IOException.class).hasRootCauseMessage("codec exploded");
        assertThatThrownBy(out::flush).isInstanceOf(IOException.class).hasRootCauseMessage("codec exploded");
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasRootCauseMessage("codec exploded");
        out.close(); // idempotent

        assertThat(closes.get()).isEqualTo(1);
        assertThat(threads).hasSizeGreaterThan(1).noneMatch(Thread::isAlive);
        assertThatThrownBy(() -> decode(sink.toByteArray())).as("truncated, not silently missing a block")
                .isInstanceOf(IOException.class);
    }

    @Test
    void anErrorInAWorkerSurfacesFromCloseToo() {
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().maxWorkers(2).heldWorkers(2).beforeEncode(() -> {
            throw new OutOfMemoryError("simulated");
        }).build(new ByteArrayOutputStream());
        Throwable thrown = catchThrowable(() -> {
            out.write(new byte[100]);
            out.close();
        });
        assertThat(thrown).isInstanceOf(IOException.class).hasRootCauseInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void aFailingSinkSurfacesToTheWriterAndEveryThreadEnds() throws Exception {
        AtomicInteger closes = new AtomicInteger();
        OutputStream sink = new OutputStream() {
            private long written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (written + len > 300_000) {
                    throw new IOException("disk full");
                }
                written += len;
            }

            @Override
            public void close() {
                closes.incrementAndGet();
            }
        };
        Set<Thread> before = workerThreads();
        // Workers from the first block: the sink fails within three, before a tuner would start one.
        AdaptiveOutputStream out = restless(4).heldWorkers(2).fifoCapacity(64 * 1024).build(sink);
        byte[] data = DataKind.RANDOM.generate(4 << 20);
        Set<Thread> started = new HashSet<>();

        Throwable duringWrites = catchThrowable(() -> {
            for (int i = 0; i < data.length; i += 10_000) {
                out.write(data, i, Math.min(10_000, data.length - i));
                started.addAll(workerThreads());
            }
            out.flush();
        });
        assertThat(duringWrites).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");

        assertThat(closes.get()).isEqualTo(1);
        started.removeAll(before);
        assertThat(started).as("this stream's workers").isNotEmpty().noneMatch(Thread::isAlive);
    }

    @Test
    void noWorkerThreadOutlivesCloseAndOneWorkerStartsNone() throws IOException {
        Set<Thread> before = workerThreads();
        byte[] data = DataKind.HTML.generate(SIZE);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        // Held: between blocks the loop below lists threads, time the tuner would not give workers for.
        AdaptiveOutputStream out = restless(4).heldWorkers(4).build(sink);
        Set<Thread> started = new HashSet<>();
        for (int i = 0; i < data.length; i += BLOCK / 2) {
            out.write(data, i, BLOCK / 2);
            started.addAll(workerThreads());
        }
        out.close();
        started.removeAll(before);
        assertThat(started).as("this stream's workers").isNotEmpty()
                .allMatch(t -> t.getName().matches("adaptive-compress-worker-\\d+")).allMatch(Thread::isDaemon)
                .noneMatch(Thread::isAlive);
        assertThat(decode(sink.toByteArray())).isEqualTo(data);

        Set<Thread> beforeSingle = workerThreads();
        try (AdaptiveOutputStream single =
                AdaptiveOutputStream.builder().blockSize(BLOCK).build(new ByteArrayOutputStream())) {
            single.write(data);
            Set<Thread> during = workerThreads();
            during.removeAll(beforeSingle);
            assertThat(during).as("maxWorkers 1 compresses on the writer").isEmpty();
            assertThat(single.statistics().workers()).isEqualTo(1);
        }
    }

    private static Set<Thread> workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("adaptive-compress-worker-")).collect(Collectors.toSet());
    }

    @Test
    void rejectsWorkerCountsOutsideOneTo256() {
        assertThatThrownBy(() -> AdaptiveOutputStream.builder().maxWorkers(0)).hasMessageContaining("maxWorkers");
        assertThatThrownBy(() -> AdaptiveOutputStream.builder().maxWorkers(257)).hasMessageContaining("maxWorkers");
        assertThat(AdaptiveOutputStream.builder().maxWorkers(AdaptiveOutputStream.MAX_WORKERS).toString())
                .contains("maxWorkers=256");
    }
}
