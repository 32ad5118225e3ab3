package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.formats.compress.CompressWriterFactory;
import org.apache.flink.formats.compress.CompressWriters;
import org.apache.flink.formats.compress.extractor.DefaultExtractor;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Flink job on a MiniCluster writes lines through Flink's Hadoop compress writers with
 * {@link AdaptiveCodec}, found by name as Flink users configure it; the part files are read
 * back through Hadoop's codec lookup by extension.
 */
class FlinkFileSinkIT {

    private static final int LINES = 200_000;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    Path out;

    static String line(long i) {
        return "{\"ts\":" + (1_700_000_000_000L + i * 37) + ",\"level\":\"" + (i % 17 == 0 ? "WARN" : "INFO")
                + "\",\"msg\":\"request " + i + " served in " + (i * 7919 % 1000) + " ms\"}";
    }

    @Test
    void aFileSinkWritesAdaptivePartFilesThatReadBack() throws Exception {
        Configuration hadoop = new Configuration();
        hadoop.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:3");
        CompressWriterFactory<String> writers = CompressWriters.forExtractor(new DefaultExtractor<String>())
                .withHadoopCompression("AdaptiveCodec", hadoop);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        env.fromSequence(0, LINES - 1).map(FlinkFileSinkIT::line)
                .sinkTo(FileSink.forBulkFormat(new org.apache.flink.core.fs.Path(out.toUri()), writers)
                        .withOutputFileConfig(OutputFileConfig.builder().withPartSuffix(writers.getExtension()).build())
                        .build());

        env.execute("adaptive file sink");

        List<Path> parts;
        try (Stream<Path> files = Files.walk(out)) {
            parts = files.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
                    .collect(Collectors.toList());
        }
        assertThat(parts).isNotEmpty().allSatisfy(p -> assertThat(p.getFileName().toString()).endsWith(".adc"));
        CompressionCodecFactory codecs = new CompressionCodecFactory(new Configuration());
        List<String> lines = new ArrayList<>();
        long compressed = 0;
        for (Path p : parts) {
            CompressionCodec codec = codecs.getCodec(new org.apache.hadoop.fs.Path(p.toString()));
            assertThat(codec).isInstanceOf(AdaptiveCodec.class);
            compressed += Files.size(p);
            try (InputStream in = codec.createInputStream(Files.newInputStream(p));
                    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                r.lines().forEach(lines::add);
            }
        }
        List<String> expected = new ArrayList<>();
        long plain = 0;
        for (long i = 0; i < LINES; i++) {
            expected.add(line(i));
            plain += line(i).length() + 1;
        }
        Collections.sort(lines); // the part files come in any order; sorted, a plain comparison is linear
        Collections.sort(expected);
        assertThat(lines).isEqualTo(expected);
        assertThat(compressed).as("zstd:3 on JSON lines").isLessThan(plain / 4);
    }
}
