package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hadoop's TestCodec pattern, the codec factory and the pool. */
class AdaptiveCodecTest {

    /**
     * Random records through a pooled compressor's stream and back through a pooled
     * decompressor's, checked record by record and then byte by byte; the pool gets both back.
     */
    @ParameterizedTest(name = "{0} records")
    @ValueSource(ints = {0, 10_000})
    void randomRecordsRoundTripRecordByRecordAndByteByByte(int count) throws Exception {
        Configuration conf = new Configuration();
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 16 * 1024); // many blocks for 10,000 records
        AdaptiveCodec codec = TestFiles.codec(conf);
        int compressorsBefore = CodecPool.getLeasedCompressorsCount(codec);
        int decompressorsBefore = CodecPool.getLeasedDecompressorsCount(codec);

        Random random = new Random(count);
        byte[][] keys = new byte[count][];
        byte[][] values = new byte[count][];
        DataOutputBuffer data = new DataOutputBuffer();
        for (int i = 0; i < count; i++) {
            keys[i] = randomRecord(random);
            values[i] = randomRecord(random);
            writeRecord(data, keys[i]);
            writeRecord(data, values[i]);
        }

        DataOutputBuffer compressed = new DataOutputBuffer();
        Compressor compressor = CodecPool.getCompressor(codec, conf);
        try (CompressionOutputStream deflate = codec.createOutputStream(compressed, compressor);
                DataOutputStream out = new DataOutputStream(deflate)) {
            out.write(data.getData(), 0, data.getLength());
            out.flush();
            deflate.finish();
        } finally {
            CodecPool.returnCompressor(compressor);
        }

        Decompressor decompressor = CodecPool.getDecompressor(codec);
        DataInputBuffer source = new DataInputBuffer();
        source.reset(compressed.getData(), 0, compressed.getLength());
        try (CompressionInputStream inflate = codec.createInputStream(source, decompressor);
                DataInputStream in = new DataInputStream(new BufferedInputStream(inflate))) {
            for (int i = 0; i < count; i++) {
                assertThat(readRecord(in)).as("key %d", i).isEqualTo(keys[i]);
                assertThat(readRecord(in)).as("value %d", i).isEqualTo(values[i]);
            }
            assertThat(in.read()).isEqualTo(-1);
        }
        source.reset(compressed.getData(), 0, compressed.getLength());
        try (CompressionInputStream inflate = codec.createInputStream(source, decompressor);
                InputStream original = new ByteArrayInputStream(data.getData(), 0, data.getLength())) {
            for (int i = 0; i < data.getLength(); i++) {
                assertThat(inflate.read()).as("byte %d", i).isEqualTo(original.read());
            }
            assertThat(inflate.read()).isEqualTo(-1);
        } finally {
            CodecPool.returnDecompressor(decompressor);
        }

        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isEqualTo(compressorsBefore);
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(decompressorsBefore);
    }

    private static byte[] randomRecord(Random random) {
        byte[] b = new byte[random.nextInt(200)];
        // half the records compressible, half noise
        if (random.nextBoolean()) {
            random.nextBytes(b);
        } else {
            Arrays.fill(b, (byte) ('a' + random.nextInt(26)));
        }
        return b;
    }

    private static void writeRecord(DataOutputBuffer out, byte[] record) throws Exception {
        out.writeInt(record.length);
        out.write(record);
    }

    private static byte[] readRecord(DataInputStream in) throws Exception {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    /**
     * IFile writers that share the spill file's stream finish and reset their compression
     * stream and never close it, so a finished stream must leave no thread behind.
     */
    @Test
    void aStreamFinishedAndResetButNeverClosedLeavesNoSenderThreadRunning() throws Exception {
        AdaptiveCodec codec = TestFiles.codec(new Configuration(false));
        Compressor compressor = CodecPool.getCompressor(codec);
        Set<Thread> sendersBefore = liveSenderThreads();
        CompressionOutputStream out = codec.createOutputStream(new DataOutputBuffer(), compressor);
        for (int segment = 0; segment < 3; segment++) {
            out.write(text(10_000));
            out.finish();
            out.resetState();
        }
        CodecPool.returnCompressor(compressor);

        assertThat(sendersBefore).containsAll(liveSenderThreads());
    }

    private static Set<Thread> liveSenderThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("adaptive-compress-sender-"))
                .collect(Collectors.toSet());
    }

    /**
     * The streams use the library's default controller, which on the word count job sent 2.7 MB
     * of map output where AdOC's rule, stuck at raw on the page cache, sent 13.5-14.0 MB
     * (docs/hadoop.md); a bare compressor, with no FIFO to watch, a fixed rung.
     */
    @Test
    void theStreamsUseTheLibrarysDefaultControllerAndABareCompressorAFixedRung() {
        AdaptiveCodecSettings defaults = AdaptiveCodecSettings.from(new Configuration(false));

        assertThat(defaults.streamOptions().controllerFactory().get()).hasToString(LevelControllers.DEFAULT_NAME);
        assertThat(defaults.compressorOptions().controllerFactory().get())
                .hasToString(AdaptiveCodecSettings.DEFAULT_COMPRESSOR_CONTROLLER);
        Configuration adoc = new Configuration(false);
        adoc.set(AdaptiveCodecSettings.CONTROLLER_KEY, "adoc");
        assertThat(AdaptiveCodecSettings.from(adoc).streamOptions().controllerFactory().get()).hasToString("adoc");
    }

    /** Histories follow the controller unless the key says otherwise, as in the library and the CLI. */
    @Test
    void historiesAreOnForAFixedRungOffForAnAdaptingControllerAndTheKeyDecides() {
        AdaptiveCodecSettings defaults = AdaptiveCodecSettings.from(new Configuration(false));
        assertThat(defaults.streamOptions().history()).as("model controller").isFalse();
        assertThat(defaults.compressorOptions().history()).as("fixed:1").isTrue();
        assertThat(defaults.streamOptions().resetInterval()).isEqualTo(AdaptiveCodecSettings.DEFAULT_RESET_INTERVAL);

        Configuration fixed = new Configuration(false);
        fixed.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:3");
        assertThat(AdaptiveCodecSettings.from(fixed).streamOptions().history()).isTrue();
        fixed.setBoolean(AdaptiveCodecSettings.HISTORY_KEY, false);
        assertThat(AdaptiveCodecSettings.from(fixed).streamOptions().history()).isFalse();
        Configuration forced = new Configuration(false);
        forced.setBoolean(AdaptiveCodecSettings.HISTORY_KEY, true);
        assertThat(AdaptiveCodecSettings.from(forced).streamOptions().history()).isTrue();
    }

    @Test
    void factoryFindsTheCodecByExtensionClassNameAndShortNameWithoutAnyConfiguration() {
        CompressionCodecFactory factory = new CompressionCodecFactory(new Configuration(false));
        assertThat(factory.getCodec(new Path("/data/part-r-00000.adc"))).isInstanceOf(AdaptiveCodec.class);
        assertThat(factory.getCodecByClassName(AdaptiveCodec.class.getName())).isInstanceOf(AdaptiveCodec.class);
        assertThat(factory.getCodecByName("adaptive")).isInstanceOf(AdaptiveCodec.class);
        assertThat(factory.getCodecByName("AdaptiveCodec")).isInstanceOf(AdaptiveCodec.class);
        assertThat(factory.getCodec(new Path("/data/part-r-00000.txt"))).isNull();
    }

    @Test
    void factoryFindsTheCodecListedInIoCompressionCodecs() {
        Configuration conf = new Configuration();
        conf.set("io.compression.codecs", AdaptiveCodec.class.getName());
        assertThat(CompressionCodecFactory.getCodecClasses(conf)).contains(AdaptiveCodec.class);
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(new Path("x.adc"));
        assertThat(codec).isInstanceOf(AdaptiveCodec.class);
        assertThat(((AdaptiveCodec) codec).getConf()).isSameAs(conf);
    }

    @Test
    void pooledCompressorIsReusedAndReinitAppliesTheNewLadder() throws Exception {
        Configuration first = new Configuration(false);
        first.set(AdaptiveCodecSettings.LADDER_KEY, "raw,lz4");
        AdaptiveCodec codec = TestFiles.codec(first);
        int before = CodecPool.getLeasedCompressorsCount(codec);

        Compressor c = CodecPool.getCompressor(codec, first);
        assertThat(firstBlockCodec(compressWith(c))).isEqualTo(CodecType.LZ4);
        CodecPool.returnCompressor(c);

        Configuration second = new Configuration(false);
        second.set(AdaptiveCodecSettings.LADDER_KEY, "raw,zstd:3");
        // The pool is JVM-wide and unordered: other tests may have returned compressors of this
        // type too. Borrow without returning until ours comes back; every pooled instance handed
        // out on the way must have been reinitialised with the borrower's configuration.
        List<Compressor> borrowed = new ArrayList<>();
        try {
            Compressor again;
            do {
                again = CodecPool.getCompressor(codec, second); // reinit(second)
                borrowed.add(again);
                assertThat(((AdaptiveFrameCompressor) again).options().ladder().toString()).contains("zstd");
            } while (again != c && borrowed.size() < 1_000);
            assertThat(again).isSameAs(c);
            assertThat(again.getBytesRead()).isZero();
            assertThat(firstBlockCodec(compressWith(again))).isEqualTo(CodecType.ZSTD);
        } finally {
            borrowed.forEach(CodecPool::returnCompressor);
        }
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isEqualTo(before);
    }

    @Test
    void streamsFollowTheCodecsConfigurationWhateverThePooledCompressorCarries() throws Exception {
        Configuration lz4 = new Configuration(false);
        lz4.set(AdaptiveCodecSettings.LADDER_KEY, "raw,lz4");
        Configuration deflate = new Configuration(false);
        deflate.set(AdaptiveCodecSettings.LADDER_KEY, "raw,deflate:6");
        deflate.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:1");
        AdaptiveCodec codec = TestFiles.codec(deflate);
        Compressor c = CodecPool.getCompressor(TestFiles.codec(lz4), lz4);
        try {
            DataOutputBuffer out = new DataOutputBuffer();
            try (CompressionOutputStream s = codec.createOutputStream(out, c)) {
                s.write(text(50_000));
            }
            assertThat(firstBlockCodec(Arrays.copyOf(out.getData(), out.getLength()))).isEqualTo(CodecType.DEFLATE);
        } finally {
            CodecPool.returnCompressor(c);
        }
    }

    @Test
    void everyOutputStreamCountsInTheJvmsGroupOfItsLadder() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(AdaptiveCodecSettings.LADDER_KEY, "raw,lz4,zstd:5"); // a ladder no other test writes with
        conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:2");
        AdaptiveCodec codec = TestFiles.codec(conf);
        long before = codec.statistics().totalBytesIn();

        TestFiles.compress(codec, text(300_000));
        TestFiles.compress(TestFiles.codec(conf), text(200_000));

        assertThat(codec.statistics().totalBytesIn() - before).isEqualTo(500_000);
        assertThat(codec.statistics().blocks(2)).isPositive();
        assertThat(codec.statistics().streams()).isZero();
    }

    @Test
    void outputStreamsLeaseNothingAndInputStreamsReturnTheirLeaseOnClose() throws Exception {
        AdaptiveCodec codec = TestFiles.codec(new Configuration());
        int compressors = CodecPool.getLeasedCompressorsCount(codec);
        int decompressors = CodecPool.getLeasedDecompressorsCount(codec);
        DataOutputBuffer out = new DataOutputBuffer();
        CompressionOutputStream s = codec.createOutputStream(out);
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).as("the pipeline uses no Compressor").isEqualTo(compressors);
        s.write(text(1000));
        s.finish(); // as Flink's bulk writers end a part file, never closing the codec's stream
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isEqualTo(compressors);
        s.close();
        try (CompressionInputStream in = codec.createInputStream(
                new ByteArrayInputStream(out.getData(), 0, out.getLength()))) {
            assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(decompressors + 1);
            assertThat(in.readAllBytes()).isEqualTo(text(1000));
        }
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(decompressors);
    }

    /**
     * A stream opened without a decompressor, whole-file or split, leases one from the pool and
     * returns it on close: one made for the stream alone would never be ended, and its native
     * zstd contexts have no cleaner.
     */
    @Test
    void streamsOpenedWithoutADecompressorLeaseOneAndReturnItOnClose(@TempDir java.nio.file.Path tmp)
            throws Exception {
        Configuration conf = new Configuration();
        AdaptiveCodec codec = TestFiles.codec(conf);
        java.nio.file.Path file = tmp.resolve("data.adc");
        TestFiles.writeCompressed(codec, text(1000), file);
        int before = CodecPool.getLeasedDecompressorsCount(codec);

        try (CompressionInputStream in = codec.createInputStream(Files.newInputStream(file), null)) {
            assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(before + 1);
            assertThat(in.readAllBytes()).isEqualTo(text(1000));
        }
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(before);

        FileSystem fs = FileSystem.getLocal(conf);
        try (CompressionInputStream in = codec.createInputStream(fs.open(TestFiles.hadoopPath(file)), null,
                0, Files.size(file), SplittableCompressionCodec.READ_MODE.BYBLOCK)) {
            assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(before + 1);
            assertThat(in.readAllBytes()).isEqualTo(text(1000));
        }
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(before);
    }

    /** A split that cannot be opened gives its leased decompressor straight back. */
    @Test
    void aSplitThatFailsToOpenReturnsItsLeasedDecompressor(@TempDir java.nio.file.Path tmp) throws Exception {
        Configuration conf = new Configuration();
        AdaptiveCodec codec = TestFiles.codec(conf);
        java.nio.file.Path file = Files.write(tmp.resolve("plain.adc"), "not compressed\n".repeat(10).getBytes());
        int before = CodecPool.getLeasedDecompressorsCount(codec);
        try (FSDataInputStream in = FileSystem.getLocal(conf).open(TestFiles.hadoopPath(file))) {
            assertThatThrownBy(() -> codec.createInputStream(in, null, 5, 10,
                    SplittableCompressionCodec.READ_MODE.BYBLOCK)).isInstanceOf(BadMagicException.class);
        }
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(before);
    }

    @Test
    void finishEndsTheStreamWithoutClosingAndResetStateStartsAnother() throws Exception {
        AdaptiveCodec codec = TestFiles.codec(new Configuration());
        DataOutputBuffer out = new DataOutputBuffer();
        CompressionOutputStream s = codec.createOutputStream(out, codec.createCompressor());
        s.write(text(3000));
        s.finish();
        int firstLength = out.getLength();
        assertThatThrownBy(() -> s.write(1)).hasMessageContaining("resetState");
        s.resetState();
        s.write(text(500));
        s.finish();
        out.write(42); // the underlying stream is still open
        s.resetState();

        DataInputBuffer in = new DataInputBuffer();
        in.reset(out.getData(), 0, firstLength);
        CompressionInputStream decode = codec.createInputStream(in, codec.createDecompressor());
        assertThat(decode.readAllBytes()).isEqualTo(text(3000));
        in.reset(out.getData(), firstLength, out.getLength() - firstLength - 1);
        decode.resetState();
        assertThat(decode.readAllBytes()).isEqualTo(text(500));
        assertThat(out.getData()[out.getLength() - 1]).isEqualTo((byte) 42);
    }

    @Test
    void badSettingsNameTheirKey() {
        Configuration conf = new Configuration(false);
        conf.set(AdaptiveCodecSettings.LADDER_KEY, "raw,nosuchcodec:3");
        assertThatThrownBy(() -> TestFiles.codec(conf)).hasMessageContaining(AdaptiveCodecSettings.LADDER_KEY);
        Configuration small = new Configuration(false);
        small.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 10);
        assertThatThrownBy(() -> TestFiles.codec(small)).hasMessageContaining(AdaptiveCodecSettings.BLOCK_SIZE_KEY);
        Configuration budget = new Configuration(false);
        budget.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:3");
        budget.set(AdaptiveCodecSettings.OBJECTIVE_KEY, "cpu-budget:0.3");
        assertThatThrownBy(() -> TestFiles.codec(budget)).hasMessageContaining(AdaptiveCodecSettings.OBJECTIVE_KEY)
                .hasMessageContaining("needs the model controller");
        budget.set(AdaptiveCodecSettings.CONTROLLER_KEY, "model");
        assertThat(TestFiles.codec(budget).settings().streamOptions().objective().toString()).isEqualTo("cpu-budget:0.3");
    }

    /**
     * Blocks larger than the format's default reader ceiling (4 MiB) read back: without
     * {@code max.block.length} set, the ceiling follows the block size.
     */
    @Test
    void blocksAboveTheDefaultCeilingReadBackWhenOnlyTheBlockSizeIsSet() throws Exception {
        Configuration conf = new Configuration(false);
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 6 << 20);
        AdaptiveCodec codec = TestFiles.codec(conf);
        assertThat(codec.settings().maxBlockLength()).isEqualTo(6 << 20);
        byte[] data = text(5 << 20); // one 5 MiB block
        byte[] file = TestFiles.compress(codec, data);
        try (CompressionInputStream in = codec.createInputStream(new ByteArrayInputStream(file))) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
        assertThat(TestFiles.codec(new Configuration(false)).settings().maxBlockLength())
                .isEqualTo(FrameFormat.DEFAULT_MAX_BLOCK_LENGTH);
    }

    @Test
    void aReaderCeilingBelowTheBlockSizeIsRefusedNamingBothKeys() {
        Configuration conf = new Configuration(false);
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 1 << 20);
        conf.setInt(AdaptiveCodecSettings.MAX_BLOCK_LENGTH_KEY, 512 << 10);
        assertThatThrownBy(() -> TestFiles.codec(conf)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(AdaptiveCodecSettings.MAX_BLOCK_LENGTH_KEY + "=524288")
                .hasMessageContaining(AdaptiveCodecSettings.BLOCK_SIZE_KEY + "=1048576");
        conf.setInt(AdaptiveCodecSettings.MAX_BLOCK_LENGTH_KEY, 1 << 20);
        assertThat(TestFiles.codec(conf).settings().maxBlockLength()).isEqualTo(1 << 20);
    }

    @Test
    void streamsGrowTheirBlocksNoLongerThanTheCodecsReadersAccept() {
        Configuration conf = new Configuration(false);
        assertThat(TestFiles.codec(conf).settings().streamOptions().maxBlockSize())
                .isEqualTo(AdaptiveCompressionOptions.DEFAULT_MAX_BLOCK_SIZE);
        conf.setInt(AdaptiveCodecSettings.MAX_BLOCK_LENGTH_KEY, 512 << 10);
        assertThat(TestFiles.codec(conf).settings().streamOptions().maxBlockSize()).isEqualTo(512 << 10);
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 512 << 10);
        assertThat(TestFiles.codec(conf).settings().streamOptions().blockSize()).isEqualTo(512 << 10);
    }

    static byte[] text(int size) {
        return org.adaptivecompress.testing.DataKind.TEXT.generate(size);
    }

    private static byte[] compressWith(Compressor c) throws Exception {
        DataOutputBuffer out = new DataOutputBuffer();
        byte[] data = text(100_000);
        c.setInput(data, 0, data.length);
        c.finish();
        byte[] buffer = new byte[1000];
        while (!c.finished()) {
            int n = c.compress(buffer, 0, buffer.length);
            out.write(buffer, 0, n);
        }
        assertThat(c.getBytesRead()).isEqualTo(data.length);
        assertThat(c.getBytesWritten()).isEqualTo(out.getLength());
        return Arrays.copyOf(out.getData(), out.getLength());
    }

    /** The codec of the first block of a stream, read from its header. */
    static CodecType firstBlockCodec(byte[] stream) throws Exception {
        int salt = FrameFormat.readStreamHeader(stream, 0);
        return new BlockHeader().parse(stream, FrameFormat.STREAM_HEADER_LENGTH, salt,
                FrameFormat.usesHistory(stream, 0), FrameFormat.DEFAULT_MAX_BLOCK_LENGTH,
                FrameFormat.STREAM_HEADER_LENGTH).codec();
    }
}
