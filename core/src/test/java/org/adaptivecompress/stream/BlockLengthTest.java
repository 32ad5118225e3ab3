package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Blocks of the length the controller asks for, from the block size to the longest block
 * ({@link AdaptiveCompressionOptions#maxBlockSize()}): written, with and without workers and
 * histories, as asked, and read back bit for bit.
 */
class BlockLengthTest {

    private static final int BLOCK = 64 * 1024;
    private static final int LONGEST = 512 * 1024;

    @ParameterizedTest(name = "{0} workers, histories {1}")
    @CsvSource({"1, false", "1, true", "3, false", "3, true"})
    void blocksTakeTheLengthsTheControllerAsksForAndRoundTrip(int maxWorkers, boolean history) throws IOException {
        byte[] data = DataKind.MIXED.generate(6 << 20);
        ScriptedController controller = new ScriptedController(2, 3, 4, 1).withBlockLengths(0, 200_000, -1, 100_000,
                -1, -1, 0);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller)
                .blockSize(BLOCK).maxBlockSize(LONGEST).history(history).maxWorkers(maxWorkers).build(sink)) {
            out.write(data); // one write: every block but the last is as long as asked
        }

        assertThat(readAll(sink.toByteArray())).isEqualTo(data);
        List<Integer> lengths = controller.observations().stream().map(Observation::uncompressedLength)
                .collect(Collectors.toList());
        List<Integer> asked = List.of(BLOCK, 200_000, LONGEST, 100_000, LONGEST, LONGEST, BLOCK);
        for (int i = 0; i < lengths.size() - 1; i++) {
            // With workers, a block takes the length last asked when the writer began filling
            // it, which may be an earlier block's: decisions come as blocks finish.
            List<Integer> expected = maxWorkers == 1 ? List.of(asked.get(i % asked.size())) : asked;
            // A block the writer stores raw leaves room for its header in the length asked.
            assertThat(expected.contains(lengths.get(i)) || expected.contains(lengths.get(i) + 28))
                    .as("block %d of %s", i, lengths).isTrue();
        }
    }

    @Test
    void oddWritesAndFlushesCutBlocksWhereverTheyFallAndStillRoundTrip() throws IOException {
        byte[] data = DataKind.MIXED.generate(3 << 20);
        ScriptedController controller = new ScriptedController(0, 3, 1).withBlockLengths(-1, 0, 300_000);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        SplittableRandom random = new SplittableRandom(7);
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller)
                .blockSize(BLOCK).maxBlockSize(LONGEST).maxWorkers(2).build(sink)) {
            for (int at = 0; at < data.length; ) {
                int n = Math.min(data.length - at, random.nextInt(1, 400_000));
                if (n == 1) {
                    out.write(data[at]);
                } else {
                    out.write(data, at, n);
                }
                at += n;
                if (random.nextInt(8) == 0) {
                    out.flush();
                }
            }
        }
        assertThat(readAll(sink.toByteArray())).isEqualTo(data);
        assertThat(controller.observations()).allSatisfy(o -> assertThat(o.uncompressedLength()).isBetween(1, LONGEST));
    }

    @Test
    void aLengthOutsideTheBlockSizeAndTheLongestIsHeldToThem() throws IOException {
        byte[] data = DataKind.MIXED.generate(2 << 20);
        ScriptedController controller = new ScriptedController(3).withBlockLengths(1, Integer.MAX_VALUE);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller)
                .blockSize(BLOCK).maxBlockSize(LONGEST).build(sink)) {
            out.write(data);
        }
        assertThat(readAll(sink.toByteArray())).isEqualTo(data);
        assertThat(controller.observations().subList(0, 4)).extracting(Observation::uncompressedLength)
                .containsExactly(BLOCK, LONGEST, BLOCK, LONGEST);
    }

    /**
     * The default controller grows blocks on a link slower than its codecs (8 Mbit/s: every
     * rung of the default ladder but xz outruns it on text several times over), once it has
     * measured the link; the rungs it chooses are asserted elsewhere ({@code EmulatedLinkTest}).
     */
    @Test
    void theDefaultControllerGrowsBlocksWhileTheLinkBoundsTheStream() throws IOException {
        byte[] data = DataKind.TEXT.generate(8 << 20);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().build(
                new RateLimitedOutputStream(received, RateLimitedOutputStream.parseRate("16mbit")));
        for (int i = 0; i < data.length; i += 8192) {
            out.write(data, i, Math.min(8192, data.length - i));
        }
        out.close();
        CompressionStatistics stats = out.statistics();

        assertThat(readAll(received.toByteArray())).isEqualTo(data);
        assertThat(stats.totalBytesIn() / (double) stats.totalBlocks()).as(stats.toString())
                .isGreaterThan(1.5 * AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE);
    }

    @Test
    void aReaderRefusesABlockLongerThanItsLimitWithTheTypedError() throws IOException {
        ScriptedController controller = new ScriptedController(3).withBlockLengths(-1);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> controller)
                .blockSize(BLOCK).maxBlockSize(LONGEST).build(sink)) {
            out.write(DataKind.MIXED.generate(LONGEST));
        }
        InputStream in = AdaptiveInputStream.builder().maxBlockLength(LONGEST / 2)
                .build(new ByteArrayInputStream(sink.toByteArray()));
        assertThatThrownBy(in::readAllBytes).isInstanceOf(OversizedBlockException.class);
    }

    @Test
    void theLongestBlockDefaultsToOneMebibyteOrTheBlockSizeAndIsNeverShorter() {
        assertThat(AdaptiveCompressionOptions.defaults().maxBlockSize()).isEqualTo(1 << 20);
        assertThat(AdaptiveCompressionOptions.builder().blockSize(4 << 20).build().maxBlockSize()).isEqualTo(4 << 20);
        AdaptiveCompressionOptions set = AdaptiveCompressionOptions.builder().maxBlockSize(2 << 20).build();
        assertThat(set.toBuilder().blockSize(1 << 20).build().maxBlockSize()).isEqualTo(2 << 20);
        assertThat(AdaptiveCompressionOptions.defaults().toBuilder().blockSize(2 << 20).build().maxBlockSize())
                .as("a default carried by toBuilder follows the block size").isEqualTo(2 << 20);
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().blockSize(1 << 20).maxBlockSize(512 << 10).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than the block size");
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().maxBlockSize(100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBlockSize");
    }

    private static byte[] readAll(byte[] stream) throws IOException {
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }
}
