package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.DecompressionLimitException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reset points, where a reader can start in a stream with histories, and the history window. */
class ResetPointTest {

    private static final int BLOCK = 32 * 1024;
    private static final int INTERVAL = 8 * BLOCK;

    private static byte[] write(byte[] data, String rung, int workers, long resetInterval, int window,
            boolean randomFlushes) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        Random random = new Random(7);
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder("raw," + rung).controller("fixed:1")
                .blockSize(BLOCK).history(true).resetInterval(resetInterval).historyWindow(window)
                .maxWorkers(workers).build(sink)) {
            for (int i = 0; i < data.length; ) {
                int n = Math.min(data.length - i, 1 + random.nextInt(3 * BLOCK));
                out.write(data, i, n);
                i += n;
                if (randomFlushes && random.nextInt(8) == 0) {
                    out.flush();
                }
            }
        }
        return sink.toByteArray();
    }

    private static byte[] read(byte[] stream, AdaptiveInputStream.Builder builder) throws IOException {
        try (InputStream in = builder.build(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    private static boolean isResetPoint(byte[] stream, int frame) {
        return (stream[frame + 1] & FrameFormat.BLOCK_FLAG_RESET) != 0;
    }

    /** Content bytes of the blocks before {@code frame}, from its header. */
    private static int contentBefore(byte[] stream, int frame) {
        return (int) FrameFormat.getLong(stream, frame + 16);
    }

    @ParameterizedTest(name = "{0}, {1} workers, random flushes {2}")
    @CsvSource({"zstd:3, 1, false", "zstd:3, 2, true", "xz:1, 1, true", "xz:1, 2, false"})
    void aReaderStartingAtAnyResetPointDecodesTheRestOnItsOwn(String rung, int workers, boolean flushes)
            throws IOException {
        byte[] data = DataKind.MIXED.generate(3 << 20);
        byte[] stream = write(data, rung, workers, INTERVAL, 2 << 20, flushes);

        assertThat(read(stream, AdaptiveInputStream.builder())).isEqualTo(data);
        List<Integer> frames = Frames.starts(stream);
        List<Integer> resets = new ArrayList<>();
        for (int frame : frames.subList(0, frames.size() - 1)) {
            if (isResetPoint(stream, frame)) {
                resets.add(frame);
            }
        }
        // One at the first block after every interval of content since the last.
        assertThat(resets).hasSizeBetween(data.length / (INTERVAL + BLOCK), data.length / INTERVAL);
        int last = 0;
        for (int reset : resets) {
            int at = contentBefore(stream, reset);
            assertThat(at - last).as("content between reset points").isBetween(INTERVAL, INTERVAL + BLOCK - 1);
            last = at;
            assertThat(Frames.decodeJoining(stream, reset)).as("from the reset point at content byte %d", at)
                    .isEqualTo(Arrays.copyOfRange(data, at, data.length));
        }
    }

    @Test
    void aReaderJoiningAStreamWithHistoriesAtABlockThatIsNotAResetPointIsRefused() throws IOException {
        byte[] data = DataKind.TEXT.generate(1 << 20);
        byte[] stream = write(data, "zstd:3", 1, INTERVAL, 2 << 20, false);
        int second = Frames.starts(stream).get(1);
        assertThat(isResetPoint(stream, second)).isFalse();

        assertThat(catchThrowable(() -> Frames.decodeJoining(stream, second))).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("not a reset point");
    }

    @Test
    void optionsHandedToTheStreamBuilderKeepTheirWindowAndResetInterval() throws IOException {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,zstd:9")
                .controller("fixed:1").blockSize(BLOCK).history(true).historyWindow(4 << 20).resetInterval(INTERVAL)
                .build();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().compression(options).build(sink)) {
            out.write(DataKind.TEXT.generate(1 << 20));
        }
        byte[] stream = sink.toByteArray();
        assertThat(stream[6]).as("window log").isEqualTo((byte) 22);
        assertThat(Frames.starts(stream)).filteredOn(frame -> isResetPoint(stream, frame)).hasSize(3);
    }

    @Test
    void withoutAnIntervalNoBlockIsAResetPoint() throws IOException {
        byte[] stream = write(DataKind.TEXT.generate(2 << 20), "zstd:3", 2, 0, 2 << 20, true);
        assertThat(Frames.starts(stream)).hasSizeGreaterThan(60).noneMatch(frame -> isResetPoint(stream, frame));
    }

    /** Data that repeats 3 MiB back: only zstd:9's 4 MiB window finds it, not one capped at 2 MiB, nor zstd:3's. */
    @Test
    void aWiderWindowMatchesFurtherBackAndDeclaresItself() throws IOException {
        byte[] unique = DataKind.JSON_EVENTS.generate(3 << 20); // no repeat further back than a block
        byte[] data = new byte[2 * unique.length];
        System.arraycopy(unique, 0, data, 0, unique.length);
        System.arraycopy(unique, 0, data, unique.length, unique.length);
        byte[] narrow = write(data, "zstd:9", 1, 0, 2 << 20, false);
        byte[] wide = write(data, "zstd:9", 1, 0, 8 << 20, false);
        byte[] level3 = write(data, "zstd:3", 1, 0, 8 << 20, false);

        assertThat(narrow[6]).as("window log in the stream header").isEqualTo((byte) 21);
        assertThat(wide[6]).as("zstd:9's own window, under the cap").isEqualTo((byte) 22);
        assertThat(level3[6]).isEqualTo((byte) 21);
        assertThat(level3.length).isGreaterThan(narrow.length * 4 / 5);
        assertThat(wide.length).isLessThan(narrow.length * 3 / 5);
        assertThat(read(wide, AdaptiveInputStream.builder())).isEqualTo(data);
    }

    @Test
    void aReaderRefusesAWindowOverItsLimitNamingIt() throws IOException {
        byte[] data = DataKind.TEXT.generate(1 << 20);
        byte[] stream = write(data, "zstd:9", 1, 0, 8 << 20, false);

        assertThat(catchThrowable(() -> read(stream, AdaptiveInputStream.builder().maxWindow(2 << 20))))
                .isInstanceOf(DecompressionLimitException.class)
                .hasMessageContaining(String.valueOf(4 << 20)).hasMessageContaining(String.valueOf(2 << 20))
                .hasMessageContaining("maxWindow");
        assertThat(read(stream, AdaptiveInputStream.builder().maxWindow(4 << 20))).isEqualTo(data);
        assertThat(read(stream, AdaptiveInputStream.builder())).as("within the default 8 MiB").isEqualTo(data);
    }

    @Test
    void concatenatedStreamsWithResetPointsReadAsOne() throws IOException {
        byte[] first = DataKind.JSON_EVENTS.generate(1 << 20);
        byte[] second = DataKind.TEXT.generate(1 << 20);
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.write(write(first, "zstd:3", 1, INTERVAL, 2 << 20, true));
        both.write(write(second, "xz:1", 2, INTERVAL, 2 << 20, true));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(first);
        expected.write(second);

        assertThat(read(both.toByteArray(), AdaptiveInputStream.builder().concatenated(true)))
                .isEqualTo(expected.toByteArray());
    }
}
