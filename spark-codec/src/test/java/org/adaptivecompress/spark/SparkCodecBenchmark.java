package org.adaptivecompress.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.adaptivecompress.engine.CompressionStatistics;
import org.apache.spark.SparkConf;

/**
 * The same local[2] Spark job (a broadcast, a shuffle of every event, spills) with Spark's lz4
 * and zstd codecs and the adaptive codec, side by side in one run: job time, shuffle bytes
 * written and bytes spilled, the median of interleaved rounds. Arguments: records (default
 * 2,000,000), rounds (default 3). Run with the JVM options Spark needs by
 * {@code mvn -B -q -pl spark-codec test-compile exec:exec@benchmark [-Dbenchmark.args="8000000 3"]}.
 */
public final class SparkCodecBenchmark {

    private SparkCodecBenchmark() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Map<String, String> codecs = new LinkedHashMap<>();
        codecs.put("lz4 (Spark's default)", "lz4");
        codecs.put("zstd (level 1)", "zstd");
        codecs.put("adaptive (default: fixed:2, zstd:1)", AdaptiveCompressionCodec.class.getName());
        codecs.put("adaptive, controller=model", AdaptiveCompressionCodec.class.getName() + "|model");
        codecs.put("adaptive, fixed:1 (lz4)", AdaptiveCompressionCodec.class.getName() + "|fixed:1");
        Map<String, List<SparkJobs.Result>> results = new LinkedHashMap<>();
        Map<String, String> rungs = new LinkedHashMap<>();
        Path dir = Files.createTempDirectory("spark-codec-benchmark");
        SparkJobs.run(SparkJobs.conf("lz4", dir), records / 4, 4); // warm-up: JIT, Spark's classes
        for (int round = 0; round < rounds; round++) {
            for (Map.Entry<String, String> c : codecs.entrySet()) {
                String[] spec = c.getValue().split("\\|");
                SparkConf conf = SparkJobs.conf(spec[0], dir);
                if (spec.length > 1) {
                    conf.set(AdaptiveCompressionCodec.CONTROLLER, spec[1]);
                }
                CompressionStatistics before = spec[0].equals("lz4") || spec[0].equals("zstd") ? null
                        : new AdaptiveCompressionCodec(conf).statistics();
                SparkJobs.Result r = SparkJobs.run(conf, records, 4);
                results.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(r);
                if (before != null) {
                    rungs.put(c.getKey(), blocksSince(before, new AdaptiveCompressionCodec(conf).statistics()));
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d records, %d rounds, median of each; 2 vCPUs, local[2]%n", records, rounds);
        System.out.println("| codec | job time (s) | shuffle bytes written (MB) | disk bytes spilled (MB) | adaptive blocks by rung (last round) |");
        System.out.println("|---|---:|---:|---:|---|");
        for (Map.Entry<String, List<SparkJobs.Result>> e : results.entrySet()) {
            List<SparkJobs.Result> rs = e.getValue();
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %s |%n", e.getKey(),
                    median(rs.stream().mapToDouble(r -> r.nanos / 1e9).toArray()),
                    median(rs.stream().mapToDouble(r -> r.shuffleBytesWritten / 1e6).toArray()),
                    median(rs.stream().mapToDouble(r -> r.diskBytesSpilled / 1e6).toArray()),
                    rungs.getOrDefault(e.getKey(), ""));
        }
    }

    private static String blocksSince(CompressionStatistics before, CompressionStatistics after) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < after.ladder().size(); r++) {
            long n = after.blocks(r) - before.blocks(r);
            if (n > 0) {
                sb.append(sb.length() > 0 ? " " : "").append(after.ladder().rung(r)).append('=').append(n);
            }
        }
        return sb.toString();
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
