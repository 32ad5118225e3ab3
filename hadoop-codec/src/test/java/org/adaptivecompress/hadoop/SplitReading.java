package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/** Reads a file through TextInputFormat's line readers, one split after another. */
final class SplitReading {

    private SplitReading() {}

    /** Splits of {@code splitSize} bytes covering {@code length} bytes, as {start, length} pairs. */
    static List<long[]> splits(long length, long splitSize) {
        List<long[]> splits = new ArrayList<>();
        for (long s = 0; s < length; s += splitSize) {
            splits.add(new long[] {s, Math.min(splitSize, length - s)});
        }
        return splits;
    }

    /** Every line of every split, in order, through the new-API (mapreduce) LineRecordReader. */
    static List<String> readNewApi(Configuration conf, Path file, List<long[]> splits) throws IOException {
        List<String> lines = new ArrayList<>();
        String delimiter = conf.get("textinputformat.record.delimiter");
        TaskAttemptContextImpl context = new TaskAttemptContextImpl(
                conf instanceof JobConf ? conf : new JobConf(conf), new TaskAttemptID());
        for (long[] split : splits) {
            LineRecordReader reader = new LineRecordReader(
                    delimiter == null ? null : delimiter.getBytes(StandardCharsets.UTF_8));
            try {
                reader.initialize(new FileSplit(file, split[0], split[1], new String[0]), context);
                while (reader.nextKeyValue()) {
                    lines.add(reader.getCurrentValue().toString());
                }
            } finally {
                reader.close();
            }
        }
        return lines;
    }

    /** The same through the old-API (mapred) LineRecordReader. */
    static List<String> readOldApi(Configuration conf, Path file, List<long[]> splits) throws IOException {
        List<String> lines = new ArrayList<>();
        String delimiter = conf.get("textinputformat.record.delimiter");
        JobConf job = new JobConf(conf);
        for (long[] split : splits) {
            org.apache.hadoop.mapred.LineRecordReader reader = new org.apache.hadoop.mapred.LineRecordReader(job,
                    new org.apache.hadoop.mapred.FileSplit(file, split[0], split[1], new String[0]),
                    delimiter == null ? null : delimiter.getBytes(StandardCharsets.UTF_8));
            LongWritable key = reader.createKey();
            Text value = reader.createValue();
            try {
                while (reader.next(key, value)) {
                    lines.add(value.toString());
                }
            } finally {
                reader.close();
            }
        }
        return lines;
    }
}
