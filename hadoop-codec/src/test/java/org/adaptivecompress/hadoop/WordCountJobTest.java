package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.adaptivecompress.testing.Corpus;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Word count over the corpus on the LocalJobRunner, with map output and job output compressed. */
class WordCountJobTest {

    @TempDir
    Path root;

    @Test
    void compressedJobGivesTheSameCountsAsTheUncompressedJob() throws Exception {
        Path input = Files.createDirectories(root.resolve("in"));
        for (String name : TestFiles.TEXT_CORPUS) {
            Files.write(input.resolve(name), Corpus.read(name));
        }
        Configuration plainConf = LocalJobs.localJobConf(root.resolve("plain"));
        LocalJobs.wordCount(plainConf, input, root.resolve("out-plain"));
        Map<String, Integer> expected = LocalJobs.readCounts(plainConf, root.resolve("out-plain"));

        Configuration conf = LocalJobs.localJobConf(root.resolve("adaptive"));
        LocalJobs.useCodec(conf, AdaptiveCodec.class);
        AdaptiveCodec codec = TestFiles.codec(conf);
        int compressors = CodecPool.getLeasedCompressorsCount(codec);
        Job job = LocalJobs.wordCount(conf, input, root.resolve("out-adaptive"));

        try (Stream<Path> parts = Files.list(root.resolve("out-adaptive"))) {
            assertThat(parts.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")))
                    .hasSize(2).allMatch(n -> n.endsWith(AdaptiveCodec.EXTENSION));
        }
        assertThat(LocalJobs.readCounts(conf, root.resolve("out-adaptive"))).isEqualTo(expected).isNotEmpty();
        // map outputs went through the codec (IFile streams of this codec's format)
        assertThat(job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue()).isPositive();
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isEqualTo(compressors);
        try (Stream<Path> staged = Files.list(root)) {
            assertThat(staged.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("in", "plain", "adaptive", "out-plain", "out-adaptive");
        }
    }

    /**
     * @param windowed zstd:3 blocks matching across blocks with a reset point every 32 KiB of
     *     content, where a split starts; else blocks that decode alone, each a place to start
     */
    @ParameterizedTest(name = "histories {0}")
    @ValueSource(booleans = {false, true})
    void compressedInputIsSplitAndEveryLineCountedOnce(boolean windowed) throws Exception {
        Configuration conf = LocalJobs.localJobConf(root.resolve("hadoop"));
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 16 * 1024);
        conf.setBoolean(AdaptiveCodecSettings.HISTORY_KEY, windowed);
        if (windowed) {
            conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:3");
            conf.setLong(AdaptiveCodecSettings.RESET_INTERVAL_KEY, 32 * 1024);
        }
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", 40_000);
        Path input = Files.createDirectories(root.resolve("in"));
        byte[] text = Corpus.read("plrabn12.txt");
        TestFiles.writeCompressed(TestFiles.codec(conf), text, input.resolve("plrabn12.txt" + AdaptiveCodec.EXTENSION));
        Path plainInput = Files.createDirectories(root.resolve("plain-in"));
        Files.write(plainInput.resolve("plrabn12.txt"), text);

        Job job = LocalJobs.wordCount(conf, input, root.resolve("out"));
        Job plain = LocalJobs.wordCount(LocalJobs.localJobConf(root.resolve("hadoop-plain")), plainInput,
                root.resolve("out-plain"));

        Job probe = Job.getInstance(conf);
        org.apache.hadoop.mapreduce.lib.input.FileInputFormat.addInputPath(probe, TestFiles.hadoopPath(input));
        assertThat(new TextInputFormat().getSplits(probe)).hasSizeGreaterThan(3);
        assertThat(job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue())
                .isEqualTo(plain.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
        assertThat(LocalJobs.readCounts(conf, root.resolve("out")))
                .isEqualTo(LocalJobs.readCounts(conf, root.resolve("out-plain")));
        assertThat(List.of(job.isSuccessful(), plain.isSuccessful())).containsOnly(true);
    }
}
