package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The AdOC loop against an emulated link (a token bucket on the sink, real threads). Assertions
 * are on the rungs the controller chose, never on wall time, and only where the link is slow
 * enough that a stall of the machine cannot change the answer: how the stream behaves on a link
 * faster than its codecs is measured over real TCP (netty-codec's ThrottledLoopbackIT) and in the
 * link benchmark.
 */
class EmulatedLinkTest {

    private static final int LZ4 = 1; // in the default ladder

    private static CompressionStatistics send(byte[] data, long bytesPerSecond, String controller) throws IOException {
        AdaptiveOutputStream out = AdaptiveOutputStream.builder()
                .controller(controller)
                .fifoCapacity(1 << 20)
                .build(new RateLimitedOutputStream(OutputStream.nullOutputStream(), bytesPerSecond));
        for (int i = 0; i < data.length; i += 8192) {
            out.write(data, i, Math.min(8192, data.length - i));
        }
        out.close();
        return out.statistics();
    }

    @ParameterizedTest
    @ValueSource(strings = {"adoc", "model"})
    void climbsAboveLz4OnTextOverAFewMegabitLink(String controller) throws IOException {
        CompressionStatistics stats = send(DataKind.TEXT.generate(3 << 20), RateLimitedOutputStream.parseRate("8mbit"),
                controller);

        assertThat(stats.highestRungWithAtLeast(2)).as(stats.toString()).isGreaterThan(LZ4);
        long aboveLz4 = 0;
        for (int r = LZ4 + 1; r < stats.ladder().size(); r++) {
            aboveLz4 += stats.blocks(r);
        }
        assertThat(aboveLz4).as(stats.toString()).isGreaterThan(stats.totalBlocks() / 2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"adoc", "model"})
    void endsAtRawOnRandomData(String controller) throws IOException {
        CompressionStatistics stats = send(DataKind.RANDOM.generate(4 << 20), RateLimitedOutputStream.parseRate("8mbit"),
                controller);

        // Every block is stored raw; the engine retries compression ever more rarely.
        assertThat(stats.blocks(0)).as(stats.toString()).isEqualTo(stats.totalBlocks());
        assertThat(stats.incompressibleBlocks()).as("blocks found or assumed incompressible")
                .isGreaterThan(stats.totalBlocks() / 2);
        assertThat(stats.totalBytesOut()).isLessThan(stats.totalBytesIn() + stats.totalBlocks() * FrameFormat.BLOCK_HEADER_LENGTH + 1);
    }
}
