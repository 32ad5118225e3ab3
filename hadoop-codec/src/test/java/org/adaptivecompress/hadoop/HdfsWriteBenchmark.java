package org.adaptivecompress.hadoop;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.adaptivecompress.testing.DataKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Files written to a real HDFS through the codec with each controller: one NameNode and one
 * DataNode in this JVM on 127.0.0.1, the DataNode's pipeline (packets, checksums, the local disk)
 * being the sink the controller measures. Each kind of data is written by every controller in
 * turn, {@code rounds} times over, and the table gives each one's median seconds and the file's
 * bytes; one unreported round first (class loading, JIT).
 *
 * <p>Run in a JVM of its own ({@code exec:java} runs it inside Maven's, where the sink ran at
 *  a third of the speed and the controllers chose otherwise):
 * {@code mvn -B -q install -DskipTests}, then {@code mvn -B -q -pl hadoop-codec
 * dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/cp.txt} and
 * {@code java -cp hadoop-codec/target/test-classes:hadoop-codec/target/classes:$(cat /tmp/cp.txt)
 * org.adaptivecompress.hadoop.HdfsWriteBenchmark 64 7} (MiB a file, rounds).
 */
public final class HdfsWriteBenchmark {

    private static final String[] CONTROLLERS = {"model", "adoc", "fixed:0", "fixed:1", "fixed:3"};

    private HdfsWriteBenchmark() {}

    /** Entry point: {@code [MiB a file] [rounds]}. */
    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path base = Files.createTempDirectory("hdfs-write-benchmark");
        MiniDFSCluster cluster = startCluster(base);
        try {
            FileSystem fs = cluster.getFileSystem();
            System.out.printf(Locale.ROOT, "%d MiB a file; median of %d rounds, controllers in turn.%n%n", mib, rounds);
            System.out.println("| data | controller | seconds (median) | all rounds | file bytes | blocks by rung (last round) |");
            System.out.println("|---|---|---:|---|---:|---|");
            for (DataKind kind : new DataKind[] {DataKind.JSON_EVENTS, DataKind.TEXT, DataKind.RANDOM}) {
                byte[] data = kind.generate(mib << 20);
                round(fs, data, new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>()); // unreported
                Map<String, List<Double>> seconds = new LinkedHashMap<>();
                Map<String, Long> bytes = new LinkedHashMap<>();
                Map<String, String> rungs = new LinkedHashMap<>();
                for (int r = 0; r < rounds; r++) {
                    round(fs, data, seconds, bytes, rungs);
                }
                for (String controller : CONTROLLERS) {
                    List<Double> s = seconds.get(controller);
                    String all = s.stream().map(x -> String.format(Locale.ROOT, "%.3f", x)).collect(Collectors.joining(" "));
                    double median = s.stream().sorted().skip(s.size() / 2).findFirst().orElseThrow();
                    System.out.printf(Locale.ROOT, "| %s | %s | %.3f | %s | %,d | %s |%n", kind.name().toLowerCase(Locale.ROOT),
                            controller, median, all, bytes.get(controller), rungs.get(controller));
                }
            }
        } finally {
            cluster.shutdown(true);
            FileUtil.fullyDelete(base.toFile());
        }
    }

    /** Writes {@code data} once with each controller in turn, adding its seconds, its file's bytes and its rungs. */
    private static void round(FileSystem fs, byte[] data, Map<String, List<Double>> seconds, Map<String, Long> bytes,
            Map<String, String> rungs) throws Exception {
        for (String controller : CONTROLLERS) {
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/bench/" + controller.replace(':', '-'));
            long t0 = System.nanoTime();
            String blocks = write(fs, data, controller, file);
            seconds.computeIfAbsent(controller, c -> new ArrayList<>()).add((System.nanoTime() - t0) / 1e9);
            bytes.put(controller, fs.getFileStatus(file).getLen());
            rungs.put(controller, blocks);
        }
    }

    /** Writes the file in 64 KiB writes; returns its blocks by rung. */
    private static String write(FileSystem fs, byte[] data, String controller, org.apache.hadoop.fs.Path file)
            throws Exception {
        Configuration conf = new Configuration(fs.getConf());
        conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, controller);
        AdaptiveCodec codec = TestFiles.codec(conf);
        AdaptiveCompressionOutputStream out = (AdaptiveCompressionOutputStream) codec.createOutputStream(fs.create(file, true));
        try (OutputStream closing = out) {
            for (int off = 0; off < data.length; off += 64 << 10) {
                closing.write(data, off, Math.min(64 << 10, data.length - off));
            }
        }
        return out.statistics().blocksByRung();
    }

    private static MiniDFSCluster startCluster(Path base) throws Exception {
        Configuration conf = LoopbackDfs.configuration(base);
        // A file's close waits for the NameNode to hear of its last block, retrying after this
        // delay (400 ms by default): every write would take either its own time or 0.4 s more.
        conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 5);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base.toFile()).numDataNodes(1).build();
        cluster.waitActive();
        return cluster;
    }
}
