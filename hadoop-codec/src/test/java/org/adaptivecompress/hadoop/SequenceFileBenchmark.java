package org.adaptivecompress.hadoop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.Lz4Codec;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A SequenceFile of short JSON values written and read back with each codec, RECORD and BLOCK
 * compressed: RECORD finishes and resets the codec's stream around every value, so it shows
 * what one short stream costs. Prints a markdown table of the best of {@code runs} (after one
 * unreported round), microseconds per record and the file's size.
 *
 * <p>Run: {@code mvn -B -o -q -pl hadoop-codec test-compile exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=org.adaptivecompress.hadoop.SequenceFileBenchmark
 * -Dexec.args="20000 3"} (records, runs).
 */
public final class SequenceFileBenchmark {

    private SequenceFileBenchmark() {}

    /** Entry point: {@code [records] [runs]}. */
    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Configuration conf = new Configuration();
        Configuration adoc = new Configuration(conf);
        adoc.set(AdaptiveCodecSettings.CONTROLLER_KEY, "adoc");
        List<Named> codecs = List.of(
                new Named("AdaptiveCodec (model, the default)", AdaptiveCodec.class, conf),
                new Named("AdaptiveCodec adoc", AdaptiveCodec.class, adoc),
                new Named("Lz4Codec", Lz4Codec.class, conf),
                new Named("DefaultCodec", DefaultCodec.class, conf));
        Path root = Files.createTempDirectory("sequencefile-benchmark");
        try {
            runAll(conf, root, codecs, records, 1); // unreported: class loading and JIT
            System.out.printf(Locale.ROOT, "%,d records of %d-%d bytes; best of %d runs.%n%n", records,
                    value(0).length(), value(49).length(), runs);
            System.out.println("| codec | compression | write (µs a record) | read (µs a record) | file bytes |");
            System.out.println("|---|---|---:|---:|---:|");
            for (String row : runAll(conf, root, codecs, records, runs)) {
                System.out.println(row);
            }
        } finally {
            FileUtil.fullyDelete(root.toFile());
        }
    }

    /**
     * A codec with its label in the table and the configuration its files are written with:
     * SequenceFile's writer configures the codec it is given with the writer's own.
     */
    private record Named(String label, Class<? extends CompressionCodec> type, Configuration conf) {
        CompressionCodec codec() {
            return ReflectionUtils.newInstance(type, conf);
        }
    }

    private static List<String> runAll(Configuration conf, Path root, List<Named> codecs, int records,
            int runs) throws Exception {
        List<String> rows = new ArrayList<>();
        for (CompressionType type : new CompressionType[] {CompressionType.RECORD, CompressionType.BLOCK}) {
            for (int c = 0; c < codecs.size(); c++) {
                Named named = codecs.get(c);
                CompressionCodec codec = named.codec();
                Path local = root.resolve(c + "-" + type + ".seq");
                org.apache.hadoop.fs.Path file = TestFiles.hadoopPath(local);
                long bestWrite = Long.MAX_VALUE;
                long bestRead = Long.MAX_VALUE;
                for (int run = 0; run < runs; run++) {
                    long t0 = System.nanoTime();
                    write(named.conf(), file, codec, type, records);
                    long t1 = System.nanoTime();
                    readAndCheck(conf, file, records);
                    long t2 = System.nanoTime();
                    bestWrite = Math.min(bestWrite, t1 - t0);
                    bestRead = Math.min(bestRead, t2 - t1);
                }
                rows.add(String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %,d |", named.label(),
                        type, bestWrite / 1e3 / records, bestRead / 1e3 / records,
                        Files.size(local)));
            }
        }
        return rows;
    }

    private static void write(Configuration conf, org.apache.hadoop.fs.Path file, CompressionCodec codec,
            CompressionType type, int records) throws Exception {
        try (SequenceFile.Writer w = SequenceFile.createWriter(conf, SequenceFile.Writer.file(file),
                SequenceFile.Writer.keyClass(LongWritable.class), SequenceFile.Writer.valueClass(Text.class),
                SequenceFile.Writer.compression(type, codec))) {
            LongWritable key = new LongWritable();
            Text value = new Text();
            for (int i = 0; i < records; i++) {
                key.set(i);
                value.set(value(i));
                w.append(key, value);
            }
        }
    }

    private static void readAndCheck(Configuration conf, org.apache.hadoop.fs.Path file, int records)
            throws Exception {
        try (SequenceFile.Reader r = new SequenceFile.Reader(conf, SequenceFile.Reader.file(file))) {
            LongWritable key = new LongWritable();
            Text value = new Text();
            int i = 0;
            while (r.next(key, value)) {
                if (key.get() != i || !value.toString().equals(value(i))) {
                    throw new IllegalStateException("record " + i + " read back wrong: " + key + " " + value);
                }
                i++;
            }
            if (i != records) {
                throw new IllegalStateException(i + " records read back, " + records + " written");
            }
        }
    }

    /** A JSON event of 150-200 bytes, different in every record. */
    private static String value(int i) {
        return "{\"id\":" + i + ",\"event\":\"click\",\"user\":" + (i * 7919 % 100_000) + ",\"ts\":"
                + (1_700_000_000_000L + 37L * i) + ",\"page\":\"/catalog/item/" + (i % 977) + "\",\"tags\":\""
                + "x".repeat(i % 50) + "\"}";
    }
}
