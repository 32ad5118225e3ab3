package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The codec's output stream is the pipeline: a slow underlying stream fills the FIFO and raises the rung. */
class SlowSinkTest {

    @Test
    void slowUnderlyingStreamRaisesTheRung() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(AdaptiveCodecSettings.LADDER_KEY, "raw,lz4,zstd:3");
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 8 * 1024);
        conf.setInt(AdaptiveCodecSettings.FIFO_CAPACITY_KEY, 256 * 1024);
        AdaptiveCodec codec = TestFiles.codec(conf);
        byte[] data = DataKind.JSON_EVENTS.generate(3 << 20);

        ByteArrayOutputStream slowBytes = new ByteArrayOutputStream();
        CompressionStatistics slow = write(codec, data, new RateLimitedOutputStream(slowBytes, 4 << 20));
        assertThat(slow.highestRungWithAtLeast(5)).as(slow.blocksByRung()).isPositive();
        assertThat(new AdaptiveInputStream(new java.io.ByteArrayInputStream(slowBytes.toByteArray())).readAllBytes())
                .isEqualTo(data);
    }

    private static CompressionStatistics write(AdaptiveCodec codec, byte[] data, java.io.OutputStream sink)
            throws Exception {
        AdaptiveCompressionOutputStream out =
                (AdaptiveCompressionOutputStream) codec.createOutputStream(sink, codec.createCompressor());
        for (int off = 0; off < data.length; off += 8192) {
            out.write(data, off, Math.min(8192, data.length - off));
        }
        CompressionStatistics open = out.statistics();
        assertThat(open).isNotNull();
        out.close();
        return out.statistics();
    }
}
