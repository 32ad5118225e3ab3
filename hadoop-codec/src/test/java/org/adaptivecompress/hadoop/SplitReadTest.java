package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.adaptivecompress.format.UnsupportedVersionException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;
import org.apache.hadoop.io.compress.SplittableCompressionCodec.READ_MODE;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every line is read exactly once, in order, whatever the split boundaries. */
class SplitReadTest {

    @TempDir
    Path tmp;

    /** How a test file's blocks depend on each other. */
    enum Histories {
        /** Every block decodes alone: a unit per block. */
        NONE,
        /** zstd:3 blocks with histories and a reset point every 3 blocks: a unit per reset point. */
        RESET_EVERY_3_BLOCKS,
        /** zstd:3 blocks with histories and no reset point: the whole stream is one unit. */
        NO_RESET_POINTS;

        /** Sets {@code conf} up to write files this way, with blocks of {@code blockSize}. */
        void configure(Configuration conf, int blockSize) {
            conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, blockSize);
            conf.setBoolean(AdaptiveCodecSettings.HISTORY_KEY, this != NONE);
            if (this != NONE) {
                conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:3"); // zstd:3 on the default ladder
                conf.setLong(AdaptiveCodecSettings.RESET_INTERVAL_KEY, this == NO_RESET_POINTS ? 0 : 3L * blockSize);
            }
        }
    }

    static Stream<Arguments> files() {
        List<String> random = TestFiles.randomLines(42, 1500);
        List<String> fixed = Collections.nCopies(1500, "abcdefgh");
        List<Arguments> cases = new ArrayList<>();
        for (int blockSize : new int[] {256, 1000, 128 * 1024}) {
            for (Histories histories : Histories.values()) {
                if (histories == Histories.NO_RESET_POINTS && blockSize != 1000) {
                    continue;
                }
                cases.add(Arguments.of("random-LF", random, "\n", true, null, blockSize, histories));
                cases.add(Arguments.of("random-LF-no-trailing", random, "\n", false, null, blockSize, histories));
                cases.add(Arguments.of("random-CRLF", random, "\r\n", true, null, blockSize, histories));
                cases.add(Arguments.of("fixed-LF", fixed, "\n", true, null, blockSize, histories));
                cases.add(Arguments.of("custom-delimiter", random, "<EOR>", true, "<EOR>", blockSize, histories));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, block size {5}, histories {6}")
    @MethodSource("files")
    void everyLineExactlyOnce(String name, List<String> lines, String delimiter, boolean trailing,
            String customDelimiter, int blockSize, Histories histories) throws Exception {
        JobConf conf = new JobConf(false); // without *-default.xml, each split initialises fast
        histories.configure(conf, blockSize);
        if (customDelimiter != null) {
            conf.set("textinputformat.record.delimiter", customDelimiter);
        }
        byte[] raw = TestFiles.join(lines, delimiter, trailing);
        Path plain = Files.write(tmp.resolve("plain.txt"), raw);
        Path compressed = tmp.resolve("data.txt" + AdaptiveCodec.EXTENSION);
        TestFiles.writeCompressed(TestFiles.codec(conf), raw, compressed);
        long length = Files.size(compressed);

        List<String> expected = SplitReading.readNewApi(conf, TestFiles.hadoopPath(plain),
                SplitReading.splits(raw.length, raw.length));
        assertThat(expected).isNotEmpty();
        for (long splitSize : splitSizes(length)) {
            List<long[]> splits = SplitReading.splits(length, splitSize);
            assertThat(SplitReading.readNewApi(conf, TestFiles.hadoopPath(compressed), splits))
                    .as("%s, new API, split size %d of %d", name, splitSize, length)
                    .isEqualTo(expected);
            if (splitSize % 5 == 2) {
                assertThat(SplitReading.readOldApi(conf, TestFiles.hadoopPath(compressed), splits))
                        .as("%s, old API, split size %d of %d", name, splitSize, length)
                        .isEqualTo(expected);
            }
        }
    }

    /** Sizes from 1 byte (boundaries inside every header) to beyond the file, bounded in count. */
    private static TreeSet<Long> splitSizes(long length) {
        TreeSet<Long> sizes = new TreeSet<>();
        for (long s = 1; s <= 33; s += 4) {
            sizes.add(s);
        }
        for (long s = 41; s < length; s = s * 2 + 3) {
            sizes.add(s);
        }
        sizes.add(length - 1);
        sizes.add(length);
        sizes.add(length + 7);
        sizes.removeIf(s -> s <= 0 || length / s > 300);
        return sizes;
    }

    /** Two streams written separately and concatenated: splits find the second stream's salt. */
    @ParameterizedTest
    @EnumSource(value = Histories.class, names = {"NONE", "RESET_EVERY_3_BLOCKS"})
    void concatenatedStreamsSplitAnywhere(Histories histories) throws Exception {
        JobConf conf = new JobConf(false);
        histories.configure(conf, 300);
        AdaptiveCodec codec = TestFiles.codec(conf);
        List<String> first = TestFiles.randomLines(1, 400);
        List<String> second = TestFiles.randomLines(2, 400);
        Path file = tmp.resolve("cat.adc");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(TestFiles.compress(codec, TestFiles.join(first, "\n", true)));
            out.write(TestFiles.compress(codec, TestFiles.join(second, "\n", true)));
        }
        List<String> expected = new ArrayList<>(first);
        expected.addAll(second);
        long length = Files.size(file);
        for (long splitSize : new long[] {13, 20, 33, 100, 299, 1000, 4001, length / 2, length}) {
            assertThat(SplitReading.readNewApi(conf, TestFiles.hadoopPath(file), SplitReading.splits(length, splitSize)))
                    .as("split size %d of %d", splitSize, length)
                    .isEqualTo(expected);
        }
    }

    /**
     * A file whose content holds other adaptive streams (an {@code .adc} inside a tar or a log),
     * stored verbatim by the raw or LZ4 rung: their stream and block headers check under their
     * own salt, and a split must read them as content, not as units of the file.
     */
    @ParameterizedTest(name = "outer ladder {0}, top rung")
    @ValueSource(strings = {"raw", "raw,lz4"})
    void adaptiveStreamsInsideTheContentAreContent(String outerLadder) throws Exception {
        JobConf inner = new JobConf(false);
        inner.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 256);
        AdaptiveCodec innerCodec = TestFiles.codec(inner);
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (int i = 0; i < 12; i++) {
            content.write(TestFiles.join(TestFiles.randomLines(100 + i, 60), "\n", true));
            // two streams back to back: an end marker followed by a stream header, both embedded
            content.write(TestFiles.compress(innerCodec, TestFiles.join(TestFiles.randomLines(200 + i, 80), "\n", true)));
            content.write(TestFiles.compress(innerCodec, TestFiles.join(TestFiles.randomLines(300 + i, 80), "\n", true)));
        }
        byte[] raw = content.toByteArray();
        JobConf conf = new JobConf(false);
        conf.set(AdaptiveCodecSettings.LADDER_KEY, outerLadder);
        conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:" + (outerLadder.split(",").length - 1));
        Histories.NONE.configure(conf, 4096); // a unit per block: the scan meets every embedded header
        Path plain = Files.write(tmp.resolve("plain.bin"), raw);
        Path compressed = tmp.resolve("outer.bin" + AdaptiveCodec.EXTENSION);
        TestFiles.writeCompressed(TestFiles.codec(conf), raw, compressed);
        long length = Files.size(compressed);

        List<String> expected = SplitReading.readNewApi(conf, TestFiles.hadoopPath(plain),
                SplitReading.splits(raw.length, raw.length));
        for (long splitSize : new long[] {97, 1000, 4099, 10_000, length / 3}) {
            assertThat(SplitReading.readNewApi(conf, TestFiles.hadoopPath(compressed),
                    SplitReading.splits(length, splitSize)))
                    .as("split size %d of %d", splitSize, length)
                    .isEqualTo(expected);
        }
    }

    /** Pins down getAdjustedStart() and getPos() as CompressedSplitLineReader uses them. */
    @ParameterizedTest
    @EnumSource(value = Histories.class, names = {"NONE", "RESET_EVERY_3_BLOCKS"})
    void adjustedStartIsTheNextUnitAndPosIsItsStartPlusOne(Histories histories) throws Exception {
        Configuration conf = new Configuration(false);
        histories.configure(conf, 256);
        byte[] raw = TestFiles.join(TestFiles.randomLines(3, 300), "\n", true);
        Path file = tmp.resolve("c.adc");
        TestFiles.writeCompressed(TestFiles.codec(conf), raw, file);
        long length = Files.size(file);
        org.apache.hadoop.fs.Path path = TestFiles.hadoopPath(file);
        FileSystem fs = path.getFileSystem(conf);
        SplittableCompressionCodec codec = (SplittableCompressionCodec) new CompressionCodecFactory(conf).getCodec(path);
        int leased = CodecPool.getLeasedDecompressorsCount(codec);

        List<Long> unitStarts = new ArrayList<>();
        try (FSDataInputStream in = fs.open(path);
                SplitCompressionInputStream s = codec.createInputStream(in, codec.createDecompressor(), 0, length,
                        READ_MODE.BYBLOCK)) {
            assertThat(s.getAdjustedStart()).isZero();
            assertThat(s.getPos()).isEqualTo(1);
            byte[] b = new byte[1000];
            while (s.read(b, 0, b.length) > 0) {
                long unit = s.getPos() - 1;
                if (unitStarts.isEmpty() || unitStarts.get(unitStarts.size() - 1) != unit) {
                    unitStarts.add(unit);
                }
            }
        }
        assertThat(unitStarts.get(0)).isZero(); // the first block's unit starts with the stream header
        assertThat(unitStarts).hasSizeGreaterThan(10);
        for (long unit : unitStarts.subList(1, unitStarts.size())) {
            // with histories, a unit starts at a reset point: its header's flags say so
            byte[] header = Arrays.copyOfRange(Files.readAllBytes(file), (int) unit, (int) unit + 2);
            assertThat(header[1] & FrameFormat.BLOCK_FLAG_RESET).as("flags of the block at %d", unit)
                    .isEqualTo(histories == Histories.NONE ? 0 : FrameFormat.BLOCK_FLAG_RESET);
        }
        for (long start : new long[] {1, 12, 13, unitStarts.get(3) - 1, unitStarts.get(3), unitStarts.get(3) + 1,
                length - 1}) {
            long expected = unitStarts.stream().filter(u -> u >= start).findFirst().orElse(length);
            try (FSDataInputStream in = fs.open(path);
                    SplitCompressionInputStream s = codec.createInputStream(in, codec.createDecompressor(), start,
                            start + 10, READ_MODE.BYBLOCK)) {
                assertThat(s.getAdjustedStart()).as("start %d", start).isEqualTo(expected);
                assertThat(s.getAdjustedEnd()).isEqualTo(start + 10);
                assertThat(s.getPos()).isEqualTo(expected + 1);
            }
        }
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(leased);
    }

    /**
     * A file with histories in format version 2, which has no reset points, reads through the
     * codec from its start, and refuses to be read from the middle.
     */
    @Test
    void aVersion2StreamWithHistoriesReadsWholeButIsNotSplit() throws Exception {
        Configuration conf = new Configuration(false);
        byte[] raw = TestFiles.join(TestFiles.randomLines(5, 20_000), "\n", true);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = AdaptiveOutputStream.builder().ladder("raw,zstd:3").controller("fixed:1")
                .blockSize(4096).history(true).build(bytes)) {
            out.write(raw);
        }
        // Without reset points and with a 2 MiB window, a version 3 stream is a version 2 one
        // but for its header's version and window bytes, which no block header check covers.
        byte[] v2 = bytes.toByteArray();
        v2[4] = FrameFormat.VERSION_2;
        v2[6] = 0;
        Path file = Files.write(tmp.resolve("history.adc"), v2);
        org.apache.hadoop.fs.Path path = TestFiles.hadoopPath(file);
        FileSystem fs = path.getFileSystem(conf);
        SplittableCompressionCodec codec = (SplittableCompressionCodec) new CompressionCodecFactory(conf).getCodec(path);

        try (InputStream in = codec.createInputStream(Files.newInputStream(file))) {
            assertThat(in.readAllBytes()).isEqualTo(raw);
        }
        try (FSDataInputStream in = fs.open(path)) {
            assertThat(catchThrowable(() -> codec.createInputStream(in, codec.createDecompressor(), 100,
                    Files.size(file), READ_MODE.BYBLOCK)))
                    .isInstanceOf(UnsupportedVersionException.class)
                    .hasMessageContaining("cannot be read as splits");
        }
    }
}
