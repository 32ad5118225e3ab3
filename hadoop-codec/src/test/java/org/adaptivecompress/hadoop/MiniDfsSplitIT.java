package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import org.adaptivecompress.engine.CompressionStatistics;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** The codec on a real HDFS: one NameNode and one DataNode in this JVM, on 127.0.0.1 only. */
class MiniDfsSplitIT {

    @TempDir
    static Path base;

    private static MiniDFSCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        Configuration conf = LoopbackDfs.configuration(base);
        // Small HDFS blocks so the file spans several of them and splits cross DataNode blocks.
        conf.setLong("dfs.blocksize", 256 * 1024);
        conf.setLong("dfs.namenode.fs-limits.min-block-size", 0);
        cluster = new MiniDFSCluster.Builder(conf, base.toFile()).numDataNodes(1).storagesPerDatanode(1).build();
        cluster.waitActive();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    /**
     * @param windowed zstd:3 blocks matching across blocks, with a reset point every 64 KiB of
     *     content, against the default controller's blocks that decode alone
     */
    @ParameterizedTest(name = "histories {0}")
    @ValueSource(booleans = {false, true})
    void writesThroughThePipelineAndReadsEverySplitSizeFromHdfs(boolean windowed) throws Exception {
        assertThat(cluster.getNameNode().getNameNodeAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThat(cluster.getDataNodes().get(0).getXferAddress().getAddress().isLoopbackAddress()).isTrue();
        FileSystem fs = cluster.getFileSystem();
        JobConf conf = new JobConf(cluster.getConfiguration(0));
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 16 * 1024);
        conf.setBoolean(AdaptiveCodecSettings.HISTORY_KEY, windowed);
        if (windowed) {
            conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:3");
            conf.setLong(AdaptiveCodecSettings.RESET_INTERVAL_KEY, 64 * 1024);
        }
        org.apache.hadoop.fs.Path file = fs.makeQualified(new org.apache.hadoop.fs.Path("/data/lines-" + windowed
                + ".txt.adc"));
        AdaptiveCodec codec = (AdaptiveCodec) new CompressionCodecFactory(conf).getCodec(file);
        assertThat(codec).isNotNull();
        List<String> lines = TestFiles.randomLines(7, windowed ? 200_000 : 60_000);
        byte[] raw = TestFiles.join(lines, "\n", true);

        AdaptiveCompressionOutputStream out = (AdaptiveCompressionOutputStream) codec.createOutputStream(fs.create(file));
        try (OutputStream closing = out) {
            closing.write(raw);
        }
        CompressionStatistics statistics = out.statistics();
        assertThat(statistics.totalBytesIn()).isEqualTo(raw.length);
        long length = fs.getFileStatus(file).getLen();
        assertThat(length).isGreaterThan(256 * 1024); // several HDFS blocks
        try (InputStream in = fs.open(file)) {
            // with histories, a split starts at a reset point: one per 64 KiB of content
            assertThat(TestFiles.resetPoints(in.readAllBytes())).isEqualTo(windowed ? (raw.length - 1) / (64 * 1024) : 0);
        }
        try (InputStream in = codec.createInputStream(fs.open(file))) {
            assertThat(in.readAllBytes()).isEqualTo(raw);
        }
        for (long splitSize : new long[] {10_007, 64 * 1024 + 1, 256 * 1024, length / 2 + 1, length}) {
            assertThat(SplitReading.readNewApi(conf, file, SplitReading.splits(length, splitSize)))
                    .as("split size %d of %d", splitSize, length)
                    .isEqualTo(lines);
        }
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isZero();
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isZero();
    }
}
