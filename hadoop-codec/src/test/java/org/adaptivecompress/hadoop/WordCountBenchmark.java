package org.adaptivecompress.hadoop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.adaptivecompress.testing.Corpus;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.Lz4Codec;
import org.apache.hadoop.io.compress.ZStandardCodec;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Word count over the corpus's text files (each copied {@code copies} times) on the LocalJobRunner,
 * without a combiner so the map output is large, with map output and job output compressed by
 * each codec in turn. Prints a markdown table of job time and the job's counters.
 *
 * <p>Run: {@code mvn -B -o -q -pl hadoop-codec test-compile exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=org.adaptivecompress.hadoop.WordCountBenchmark
 * -Dexec.args="10 3"} (copies, runs per codec; the best run is reported).
 */
public final class WordCountBenchmark {

    private WordCountBenchmark() {}

    /** Entry point: {@code [copies] [runs]}. */
    public static void main(String[] args) throws Exception {
        int copies = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path root = Files.createTempDirectory("wordcount-benchmark");
        Path input = Files.createDirectories(root.resolve("in"));
        long inputBytes = 0;
        for (String name : TestFiles.TEXT_CORPUS) {
            byte[] text = Corpus.read(name);
            for (int i = 0; i < copies; i++) {
                Files.write(input.resolve(i + "-" + name), text);
                inputBytes += text.length;
            }
        }
        List<Contender> contenders = List.of(
                new Contender("none", null, null),
                new Contender("AdaptiveCodec (model, the default)", AdaptiveCodec.class, null),
                new Contender("AdaptiveCodec adoc", AdaptiveCodec.class, "adoc"),
                new Contender("AdaptiveCodec fixed:1 (lz4)", AdaptiveCodec.class, "fixed:1"),
                new Contender("AdaptiveCodec fixed:3 (zstd:3)", AdaptiveCodec.class, "fixed:3"),
                new Contender("Lz4Codec", Lz4Codec.class, null),
                new Contender("DefaultCodec (zlib)", DefaultCodec.class, null),
                new Contender("ZStandardCodec", ZStandardCodec.class, null));

        System.out.printf("Input: %d text files, %,d bytes; %d runs per codec, best shown.%n%n",
                TestFiles.TEXT_CORPUS.size() * copies, inputBytes, runs);
        System.out.println("| codec | job time (ms) | map output bytes | map output materialized (spilled and "
                + "shuffled) bytes | spilled records | job output bytes |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        try {
            // one unreported job first, so that class loading and JIT do not count against the first row
            LocalJobs.wordCount(LocalJobs.localJobConf(root.resolve("hadoop-warmup")), input, root.resolve("out-warmup"),
                    false);
            runAll(root, input, contenders, runs);
        } finally {
            FileUtil.fullyDelete(root.toFile());
        }
    }

    /** A codec, and for the adaptive codec optionally a controller, with a label for the table. */
    private static final class Contender {
        final String label;
        final Class<? extends CompressionCodec> codec;
        final String controller;

        Contender(String label, Class<? extends CompressionCodec> codec, String controller) {
            this.label = label;
            this.codec = codec;
            this.controller = controller;
        }
    }

    private static void runAll(Path root, Path input, List<Contender> contenders, int runs) throws Exception {
        int run = 0;
        for (Contender contender : contenders) {
            String unavailable = unavailable(contender.codec);
            if (unavailable != null) {
                System.out.printf("| %s | not run: %s | | | | |%n", contender.label, unavailable);
                continue;
            }
            long best = Long.MAX_VALUE;
            Counters counters = null;
            Path output = null;
            for (int r = 0; r < runs; r++) {
                Configuration conf = LocalJobs.localJobConf(root.resolve("hadoop-" + run));
                LocalJobs.useCodec(conf, contender.codec);
                if (contender.controller != null) {
                    conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, contender.controller);
                }
                output = root.resolve("out-" + run++);
                long start = System.nanoTime();
                Job job = LocalJobs.wordCount(conf, input, output, false);
                long millis = (System.nanoTime() - start) / 1_000_000;
                if (millis < best) {
                    best = millis;
                    counters = job.getCounters();
                }
            }
            System.out.printf("| %s | %d | %,d | %,d | %,d | %,d |%n", contender.label, best,
                    counters.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(),
                    counters.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue(),
                    counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
                    outputBytes(output));
        }
    }

    /** Why a codec cannot run here (e.g. it needs libhadoop), or {@code null} if it can. */
    private static String unavailable(Class<? extends CompressionCodec> codecClass) {
        if (codecClass == null) {
            return null;
        }
        try {
            CompressionCodec codec = ReflectionUtils.newInstance(codecClass, new Configuration());
            codec.createCompressor().end();
            return null;
        } catch (RuntimeException | LinkageError e) {
            return e.getMessage();
        }
    }

    private static long outputBytes(Path output) throws Exception {
        List<Long> sizes = new ArrayList<>();
        try (Stream<Path> s = Files.list(output)) {
            for (Path p : (Iterable<Path>) s.filter(p -> p.getFileName().toString().startsWith("part-"))::iterator) {
                sizes.add(Files.size(p));
            }
        }
        return sizes.stream().mapToLong(Long::longValue).sum();
    }
}
