package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.ChecksumMismatchException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.DecompressionLimitException;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.Allocations;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files fail with core's typed exceptions and a message saying what and where. */
class CorruptInputTest {

    @TempDir
    Path tmp;

    private final AdaptiveCodec codec = TestFiles.codec(new Configuration(false));

    private byte[] compressed() throws Exception {
        return TestFiles.compress(codec, DataKind.TEXT.generate(300_000));
    }

    private void assertDecodeFails(byte[] file, Class<? extends Exception> type, String message) {
        assertThatThrownBy(() -> codec.createInputStream(new ByteArrayInputStream(file)).readAllBytes())
                .isInstanceOf(type).hasMessageContaining(message);
    }

    @Test
    void truncatedFile() throws Exception {
        byte[] file = compressed();
        assertDecodeFails(Arrays.copyOf(file, file.length - 1), TruncatedStreamException.class, "inside a block header");
        assertDecodeFails(Arrays.copyOf(file, file.length - FrameFormat.BLOCK_HEADER_LENGTH), TruncatedStreamException.class,
                "without its end-of-stream marker");
        assertDecodeFails(Arrays.copyOf(file, 100), TruncatedStreamException.class, "block payload");
        assertDecodeFails(Arrays.copyOf(file, 5), TruncatedStreamException.class, "stream header");
        assertDecodeFails(new byte[0], TruncatedStreamException.class, "empty");
    }

    @Test
    void notAnAdaptiveFile() {
        assertDecodeFails("plain text, not compressed\n".getBytes(), BadMagicException.class, "AdOC");
    }

    @Test
    void damagedHeaderPayloadAndLengths() throws Exception {
        byte[] header = compressed();
        header[FrameFormat.STREAM_HEADER_LENGTH + 5] ^= 1; // a length byte of the first block header
        assertDecodeFails(header, CorruptFrameException.class, "header check");

        byte[] payload = compressed();
        payload[FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + 10] ^= 0x55;
        assertThatThrownBy(() -> codec.createInputStream(new ByteArrayInputStream(payload)).readAllBytes())
                .isInstanceOfAny(ChecksumMismatchException.class, CorruptFrameException.class)
                .hasMessageContaining("offset " + FrameFormat.STREAM_HEADER_LENGTH);
    }

    @Test
    void blockOverTheConfiguredCeilingIsRejectedBeforeAllocation() throws Exception {
        byte[] file = compressed(); // 128 KiB blocks
        Configuration conf = new Configuration(false);
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 64 * 1024); // a ceiling below it is refused
        conf.setInt(AdaptiveCodecSettings.MAX_BLOCK_LENGTH_KEY, 64 * 1024);
        AdaptiveCodec strict = TestFiles.codec(conf);
        assertThatThrownBy(() -> strict.createInputStream(new ByteArrayInputStream(file)).readAllBytes())
                .isInstanceOf(OversizedBlockException.class).hasMessageContaining("maximum block length");
    }

    /**
     * A header declaring a 64 MiB block, then a trickle of its payload: neither the codec's input
     * stream nor the {@code Decompressor} allocates what the header announces before it arrives.
     */
    @Test
    void aDeclaredBlockIsNotAllocatedBeforeItsPayloadArrives() {
        Configuration conf = new Configuration(false);
        conf.setInt(AdaptiveCodecSettings.MAX_BLOCK_LENGTH_KEY, FrameFormat.MAX_BLOCK_LENGTH_LIMIT);
        AdaptiveCodec lenient = TestFiles.codec(conf);
        byte[] stalled = Allocations.headerThenStall(2, FrameFormat.MAX_BLOCK_LENGTH_LIMIT, 1000);
        byte[] into = new byte[8192];

        long byStream = Allocations.duringCall(() -> lenient.createInputStream(new ByteArrayInputStream(stalled),
                new AdaptiveFrameDecompressor(AdaptiveCodecSettings.from(conf))).read(into));
        AdaptiveFrameDecompressor decompressor = new AdaptiveFrameDecompressor(AdaptiveCodecSettings.from(conf));
        long byDecompressor = Allocations.duringCall(() -> {
            decompressor.reset();
            decompressor.setInput(stalled, 0, stalled.length);
            decompressor.decompress(into, 0, into.length);
        });

        assertThatThrownBy(() -> lenient.createInputStream(new ByteArrayInputStream(stalled)).read(into))
                .isInstanceOf(TruncatedStreamException.class).hasMessageContaining("1000 of 67108864 bytes");
        assertThat(decompressor.needsInput()).isTrue();
        assertThat(byStream).as("bytes the input stream allocated").isLessThan(256 * 1024);
        assertThat(byDecompressor).as("bytes the decompressor allocated").isLessThan(256 * 1024);
        decompressor.end();
    }

    @Test
    void theOptionalCapsRefuseABlockBeforeDecodingIt() throws Exception {
        Configuration writing = new Configuration(false);
        writing.set(AdaptiveCodecSettings.LADDER_KEY, "raw,zstd:3");
        writing.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:1");
        byte[] zeros = TestFiles.compress(TestFiles.codec(writing), new byte[1 << 20]);
        Configuration ratio = new Configuration(writing);
        ratio.setLong(AdaptiveCodecSettings.MAX_EXPANSION_RATIO_KEY, 100);
        Configuration size = new Configuration(writing);
        size.setLong(AdaptiveCodecSettings.MAX_STREAM_BYTES_KEY, 500_000);

        assertThatThrownBy(() -> TestFiles.codec(ratio).createInputStream(new ByteArrayInputStream(zeros)).readAllBytes())
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("limit of 100 times");
        assertThatThrownBy(() -> TestFiles.codec(size).createInputStream(new ByteArrayInputStream(zeros)).readAllBytes())
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("limit of 500000 bytes");
        Configuration negative = new Configuration(false);
        negative.setLong(AdaptiveCodecSettings.MAX_STREAM_BYTES_KEY, -1);
        assertThatThrownBy(() -> TestFiles.codec(negative)).hasMessageContaining("must not be negative");
    }

    /** Blocks of 1000 bytes, so that a file of a few lines has units for several splits. */
    private static JobConf smallBlocks() {
        JobConf conf = new JobConf(false);
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 1000);
        return conf;
    }

    @Test
    void aFrameLostWholeFailsAtTheEndMarker() throws Exception {
        assertDecodeFails(Frames.without(compressed(), 1), BlockSequenceException.class, "missing");
    }

    @Test
    void aSplitReaderThatReadsTheWholeStreamChecksItsDigest() throws Exception {
        JobConf conf = smallBlocks();
        byte[] file = TestFiles.compress(TestFiles.codec(conf),
                TestFiles.join(TestFiles.randomLines(5, 2000), "\n", true));
        Path lost = Files.write(tmp.resolve("lost.adc"), Frames.without(file, 1));
        long length = Files.size(lost);
        assertThatThrownBy(() -> SplitReading.readNewApi(conf, TestFiles.hadoopPath(lost),
                SplitReading.splits(length, length)))
                .isInstanceOf(BlockSequenceException.class);
    }

    @Test
    void splitReaderReportsATruncatedFile() throws Exception {
        JobConf conf = smallBlocks();
        byte[] file = TestFiles.compress(TestFiles.codec(conf),
                TestFiles.join(TestFiles.randomLines(5, 2000), "\n", true));
        Path cut = Files.write(tmp.resolve("cut.adc"), Arrays.copyOf(file, file.length - 30));
        long length = Files.size(cut);
        assertThatThrownBy(() -> SplitReading.readNewApi(conf, TestFiles.hadoopPath(cut),
                SplitReading.splits(length, length / 3 + 1)))
                .isInstanceOf(TruncatedStreamException.class);
    }
}
