package org.adaptivecompress.examples.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.adaptivecompress.examples.ExampleData;
import org.adaptivecompress.examples.WorkDirectory;
import org.adaptivecompress.hadoop.AdaptiveCodec;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Word count on Hadoop's LocalJobRunner, in this JVM, with {@link AdaptiveCodec} compressing the
 * map output (spills and shuffle) and the job output ({@code part-r-*.adc}). Every Hadoop
 * directory lives under a temporary directory deleted at the end. Prints the most frequent words
 * and the bytes of map output and job output.
 *
 * <p>Argument (optional): a directory of text files to count; default: the corpus's English
 * text files, or generated text when the corpus is absent.
 */
public final class WordCountExample {

    private static final int TOP = 10;

    private WordCountExample() {}

    /** Runs the example; see the class comment for the argument. */
    public static void main(String[] args) throws Exception {
        try (WorkDirectory work = WorkDirectory.create("wordcount-example-")) {
            Path input = args.length > 0 ? Path.of(args[0]) : sampleInput(work.path().resolve("input"));
            Result r = run(input, work.path());
            System.out.printf(Locale.ROOT, "word count of %s: %,d distinct words%n", input, r.counts().size());
            r.counts().entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(TOP)
                    .forEach(e -> System.out.printf(Locale.ROOT, "%10d  %s%n", e.getValue(), e.getKey()));
            System.out.printf(Locale.ROOT, "map output: %,d bytes from the mappers; %,d bytes spilled and shuffled"
                    + " (after the combiner, through AdaptiveCodec)%n", r.mapOutputBytes(), r.mapOutputMaterializedBytes());
            System.out.printf(Locale.ROOT, "job output: %,d bytes in %s files (%,d bytes of text)%n",
                    r.jobOutputBytes(), AdaptiveCodec.EXTENSION, r.jobOutputTextBytes());
        }
    }

    /** The job's counts and byte counters. */
    record Result(Map<String, Integer> counts, long mapOutputBytes, long mapOutputMaterializedBytes,
            List<String> jobOutputFiles, long jobOutputBytes, long jobOutputTextBytes) {}

    /** Copies the corpus's text files (or writes generated text) into {@code directory}. */
    static Path sampleInput(Path directory) throws IOException {
        Files.createDirectories(directory);
        List<Path> corpus = ExampleData.corpusTextFiles();
        if (corpus.isEmpty()) {
            Files.writeString(directory.resolve("generated.txt"), ExampleData.generatedText(4 << 20, 42));
        }
        for (Path file : corpus) {
            Files.copy(file, directory.resolve(file.getFileName()));
        }
        return directory;
    }

    /** Counts the words of the files in {@code input}, with job files and output under {@code work}. */
    static Result run(Path input, Path work) throws Exception {
        Configuration conf = localJobConf(work);
        conf.setBoolean("mapreduce.map.output.compress", true);
        conf.setClass("mapreduce.map.output.compress.codec", AdaptiveCodec.class, CompressionCodec.class);
        conf.setBoolean("mapreduce.output.fileoutputformat.compress", true);
        conf.setClass("mapreduce.output.fileoutputformat.compress.codec", AdaptiveCodec.class, CompressionCodec.class);

        Path output = work.resolve("output");
        Job job = Job.getInstance(conf, "adaptive word count");
        job.setJarByClass(WordCountExample.class);
        job.setMapperClass(TokenizerMapper.class);
        job.setCombinerClass(IntSumReducer.class);
        job.setReducerClass(IntSumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(2);
        FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
        if (!job.waitForCompletion(false)) {
            throw new IllegalStateException("word count failed: " + job.getStatus().getFailureInfo());
        }
        Map<String, Integer> counts = new TreeMap<>();
        long outputBytes = 0;
        long textBytes = 0;
        AdaptiveCodec codec = new AdaptiveCodec();
        codec.setConf(conf);
        List<Path> parts;
        try (Stream<Path> s = Files.list(output)) {
            parts = s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        }
        for (Path part : parts) {
            outputBytes += Files.size(part);
            try (InputStream in = codec.createInputStream(Files.newInputStream(part));
                    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    textBytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
                    int tab = line.lastIndexOf('\t');
                    counts.put(line.substring(0, tab), Integer.parseInt(line.substring(tab + 1)));
                }
            }
        }
        return new Result(counts, job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(),
                job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue(),
                parts.stream().map(p -> p.getFileName().toString()).toList(), outputBytes, textBytes);
    }

    /** A configuration that stages, spills and logs nothing outside {@code root}. */
    private static Configuration localJobConf(Path root) {
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", "file:///");
        conf.set("mapreduce.framework.name", "local");
        conf.set("hadoop.tmp.dir", root.resolve("hadoop-tmp").toString());
        // the LocalJobRunner stages jobs here (default /tmp/hadoop/mapred/staging)
        conf.set("mapreduce.jobtracker.staging.root.dir", root.resolve("staging").toString());
        conf.set("mapreduce.cluster.local.dir", root.resolve("mapred-local").toString());
        conf.set("mapreduce.cluster.temp.dir", root.resolve("mapred-temp").toString());
        // Job.waitForCompletion polls every 5 s by default: a small job would wait for nothing
        conf.setInt("mapreduce.client.completion.pollinterval", 50);
        conf.setInt("mapreduce.task.io.sort.mb", 16);
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        return conf;
    }

    /** Splits lines into words at whitespace. */
    public static class TokenizerMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
        private static final IntWritable ONE = new IntWritable(1);
        private final Text word = new Text();

        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            StringTokenizer it = new StringTokenizer(value.toString());
            while (it.hasMoreTokens()) {
                word.set(it.nextToken());
                context.write(word, ONE);
            }
        }
    }

    /** Sums the counts of a word (also the combiner). */
    public static class IntSumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
        private final IntWritable result = new IntWritable();

        @Override
        protected void reduce(Text key, Iterable<IntWritable> values, Context context)
                throws IOException, InterruptedException {
            int sum = 0;
            for (IntWritable v : values) {
                sum += v.get();
            }
            result.set(sum);
            context.write(key, result);
        }
    }
}
