package org.adaptivecompress.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import scala.Tuple2;

/**
 * A local Spark job that compresses through every path the codec serves: a broadcast, a
 * shuffle, and spills forced by a low element threshold. Used by the integration test and the
 * benchmark.
 */
final class SparkJobs {

    /** What one run of the job did. */
    static final class Result {
        final Map<String, Long> counts;
        final long shuffleBytesWritten;
        final long diskBytesSpilled;
        final long nanos;

        Result(Map<String, Long> counts, long shuffleBytesWritten, long diskBytesSpilled, long nanos) {
            this.counts = counts;
            this.shuffleBytesWritten = shuffleBytesWritten;
            this.diskBytesSpilled = diskBytesSpilled;
            this.nanos = nanos;
        }
    }

    private SparkJobs() {}

    /** A local[2] configuration with {@code codec} for every compressed block, files under {@code localDir}. */
    static SparkConf conf(String codec, Path localDir) {
        return new SparkConf().setMaster("local[2]").setAppName("adaptive-compress " + codec)
                .set("spark.io.compression.codec", codec)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.local.dir", localDir.toString())
                // Spill every 20,000 records, so that spill files go through the codec too.
                .set("spark.shuffle.spill.numElementsForceSpillThreshold", "20000");
    }

    /** The event each record is made from: a JSON line, as logs and events look. */
    static String event(String[] services, int i) {
        return "{\"ts\":" + (1_700_000_000_000L + i * 37L) + ",\"service\":\"" + services[i % services.length]
                + "\",\"status\":" + (i % 13 == 0 ? 500 : 200) + ",\"user\":\"u" + (i % 9973) + "\",\"bytes\":"
                + (i * 7919 % 100_000) + "}";
    }

    /** Service names, broadcast to every task. */
    static String[] services(int n) {
        String[] s = new String[n];
        for (int i = 0; i < n; i++) {
            s[i] = "service-" + Integer.toHexString((int) (i * 2654435761L)) + "-" + i;
        }
        return s;
    }

    /**
     * Counts {@code records} events per service and status, shuffling every event itself
     * (groupByKey keeps the values, so the shuffle carries them all).
     */
    static Result run(SparkConf conf, int records, int partitions) {
        AtomicLong shuffleBytes = new AtomicLong();
        AtomicLong spilled = new AtomicLong();
        Map<String, Long> counts;
        long nanos;
        // Closing the context delivers every listener event still queued.
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.sc().addSparkListener(new SparkListener() {
                @Override
                public void onTaskEnd(SparkListenerTaskEnd end) {
                    if (end.taskMetrics() != null) {
                        shuffleBytes.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
                        spilled.addAndGet(end.taskMetrics().diskBytesSpilled());
                    }
                }
            });
            long start = System.nanoTime();
            Broadcast<String[]> services = sc.broadcast(services(50_000));
            List<Integer> seeds = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                seeds.add(p);
            }
            JavaPairRDD<String, String> events = sc.parallelize(seeds, partitions).flatMapToPair(p -> {
                List<Tuple2<String, String>> out = new ArrayList<>();
                String[] names = services.value();
                for (int i = p; i < records; i += partitions) {
                    String e = event(names, i);
                    out.add(new Tuple2<>(names[i % names.length].substring(0, 9) + (i % 13 == 0 ? ":500" : ":200"), e));
                }
                return out.iterator();
            });
            counts = events.groupByKey(partitions)
                    .mapValues(values -> {
                        long n = 0;
                        for (String ignored : values) {
                            n++;
                        }
                        return n;
                    }).collectAsMap();
            nanos = System.nanoTime() - start;
        }
        return new Result(Map.copyOf(counts), shuffleBytes.get(), spilled.get(), nanos);
    }

    /** What {@link #run} must count, worked out without Spark. */
    static Map<String, Long> expectedCounts(int records) {
        String[] names = services(50_000);
        Map<String, Long> m = new HashMap<>();
        for (int i = 0; i < records; i++) {
            m.merge(names[i % names.length].substring(0, 9) + (i % 13 == 0 ? ":500" : ":200"), 1L, Long::sum);
        }
        return m;
    }
}
