package org.adaptivecompress.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/** Word count on the LocalJobRunner inside the test JVM, with every Hadoop directory under one root. */
final class LocalJobs {

    private LocalJobs() {}

    /** A configuration that stages, spills and logs nothing outside {@code root}. */
    static Configuration localJobConf(Path root) {
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", "file:///");
        conf.set("mapreduce.framework.name", "local");
        conf.set("hadoop.tmp.dir", root.resolve("hadoop-tmp").toString());
        // LocalJobRunner stages jobs here (default /tmp/hadoop/mapred/staging)
        conf.set("mapreduce.jobtracker.staging.root.dir", root.resolve("staging").toString());
        conf.set("yarn.app.mapreduce.am.staging-dir", root.resolve("am-staging").toString());
        conf.set("mapreduce.cluster.local.dir", root.resolve("mapred-local").toString());
        conf.set("mapreduce.cluster.temp.dir", root.resolve("mapred-temp").toString());
        conf.set("mapreduce.jobhistory.intermediate-done-dir", root.resolve("jh-intermediate").toString());
        conf.set("mapreduce.jobhistory.done-dir", root.resolve("jh-done").toString());
        // Job.waitForCompletion polls every 5 s by default: every small job would take 5 s
        conf.setInt("mapreduce.client.completion.pollinterval", 50);
        conf.setInt("mapreduce.client.progressmonitor.pollinterval", 50);
        conf.setInt("mapreduce.task.io.sort.mb", 16);
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        return conf;
    }

    /** Compress map output and job output with {@code codec}; {@code null} for none. */
    static void useCodec(Configuration conf, Class<? extends CompressionCodec> codec) {
        if (codec != null) {
            conf.setBoolean("mapreduce.map.output.compress", true);
            conf.setClass("mapreduce.map.output.compress.codec", codec, CompressionCodec.class);
            conf.setBoolean("mapreduce.output.fileoutputformat.compress", true);
            conf.setClass("mapreduce.output.fileoutputformat.compress.codec", codec, CompressionCodec.class);
        }
    }

    /** Runs word count (with a combiner) over {@code input} into {@code output}; returns the finished job. */
    static Job wordCount(Configuration conf, Path input, Path output) throws Exception {
        return wordCount(conf, input, output, true);
    }

    /** Runs word count over {@code input} into {@code output}; returns the finished job. */
    static Job wordCount(Configuration conf, Path input, Path output, boolean combine) throws Exception {
        Job job = Job.getInstance(conf, "word count");
        job.setMapperClass(TokenizerMapper.class);
        if (combine) {
            job.setCombinerClass(IntSumReducer.class);
        }
        job.setReducerClass(IntSumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(2);
        FileInputFormat.addInputPath(job, TestFiles.hadoopPath(input));
        FileOutputFormat.setOutputPath(job, TestFiles.hadoopPath(output));
        if (!job.waitForCompletion(false)) {
            throw new IllegalStateException("job failed: " + job.getStatus().getFailureInfo());
        }
        return job;
    }

    /** The word counts in a job's part files, decompressed by the codec their extension names. */
    static Map<String, Integer> readCounts(Configuration conf, Path output) throws IOException {
        CompressionCodecFactory factory = new CompressionCodecFactory(conf);
        Map<String, Integer> counts = new TreeMap<>();
        List<Path> parts;
        try (Stream<Path> s = Files.list(output)) {
            parts = s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().collect(Collectors.toList());
        }
        for (Path part : parts) {
            CompressionCodec codec = factory.getCodec(TestFiles.hadoopPath(part));
            InputStream raw = Files.newInputStream(part);
            try (InputStream in = codec == null ? raw : codec.createInputStream(raw);
                    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    String[] kv = line.split("\t");
                    counts.put(kv[0], Integer.parseInt(kv[1]));
                }
            }
        }
        return counts;
    }

    /** Splits lines into words. */
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

    /** Sums the counts of a word. */
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
