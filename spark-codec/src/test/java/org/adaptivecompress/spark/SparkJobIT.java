package org.adaptivecompress.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.adaptivecompress.engine.CompressionStatistics;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real local Spark job whose broadcast, shuffle and spills all go through the codec. */
class SparkJobIT {

    private static final int RECORDS = 300_000;

    @TempDir
    Path localDir;

    @Test
    void aJobThatBroadcastsShufflesAndSpillsGetsTheRightAnswer() {
        SparkConf conf = SparkJobs.conf(AdaptiveCompressionCodec.class.getName(), localDir);
        AdaptiveCompressionCodec codec = new AdaptiveCompressionCodec(conf);
        CompressionStatistics before = codec.statistics();

        SparkJobs.Result result = SparkJobs.run(conf, RECORDS, 4);

        CompressionStatistics after = codec.statistics();
        assertThat(result.counts).isEqualTo(SparkJobs.expectedCounts(RECORDS));
        assertThat(result.shuffleBytesWritten).isPositive();
        assertThat(result.diskBytesSpilled).as("spill files, through the codec too").isPositive();
        assertThat(after.streams()).as("every stream Spark opened was closed").isZero();
        assertThat(after.totalBytesIn() - before.totalBytesIn())
                .as("the broadcast, the shuffle and the spills went through the codec")
                .isGreaterThan(result.shuffleBytesWritten);
    }
}
