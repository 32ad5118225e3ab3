package org.adaptivecompress.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.netty.LoopbackLink.Transport;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The encoder and decoder over real loopback TCP (NIO, and epoll where the native transport
 * loads): the rung follows the link, and every byte arrives intact.
 */
class ThrottledLoopbackIT {

    /** Rung 1 of the default ladder is LZ4; above it are zstd and xz. */
    private static final int LZ4 = 1;
    /** 4 Mbit/s. */
    private static final long SLOW_LINK = 4_000_000 / 8;

    @AfterEach
    void noLeaks() throws InterruptedException {
        FailingLeakDetector.assertNoLeaks();
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void climbsAboveLz4OnTextOverASlowLink(Transport transport) throws Exception {
        assumeTrue(transport.isAvailable(), "native epoll transport not available here");
        byte[] data = DataKind.TEXT.generate(3 << 20);
        AtomicReference<AdaptiveCompressionEncoder> encoder = new AtomicReference<>();

        LoopbackLink.Result result = LoopbackLink.transfer(transport, SLOW_LINK,
                () -> newEncoder(encoder), AdaptiveCompressionDecoder::new, data, true);

        assertThat(Arrays.mismatch(result.received, data)).as("first differing byte").isEqualTo(-1);
        CompressionStatistics stats = encoder.get().statistics();
        assertThat(stats.highestRungWithAtLeast(3)).as(stats.blocksByRung()).isGreaterThan(LZ4);
        assertThat(result.wireBytes).isLessThan(data.length / 2);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void staysAtRawOrLz4ForMostBlocksWhenTheLinkIsUnthrottled(Transport transport) throws Exception {
        assumeTrue(transport.isAvailable(), "native epoll transport not available here");
        // Until the socket has taken twice the largest send buffer Linux gives (2 x 4 MiB)
        // without filling, the bytes may still sit in its buffer and the link is not proven
        // fast, so the stream keeps compressing; 64 MiB of text makes that the minority of blocks.
        byte[] data = DataKind.TEXT.generate(64 << 20);
        AtomicReference<AdaptiveCompressionEncoder> encoder = new AtomicReference<>();

        LoopbackLink.Result result = LoopbackLink.transfer(transport, 0,
                () -> newEncoder(encoder), AdaptiveCompressionDecoder::new, data, true);

        assertThat(Arrays.mismatch(result.received, data)).as("first differing byte").isEqualTo(-1);
        CompressionStatistics stats = encoder.get().statistics();
        long low = stats.blocks(0) + stats.blocks(LZ4);
        assertThat(low * 2).as(stats.blocksByRung()).isGreaterThan(stats.totalBlocks());
    }

    private static AdaptiveCompressionEncoder newEncoder(AtomicReference<AdaptiveCompressionEncoder> holder) {
        AdaptiveCompressionEncoder e = new AdaptiveCompressionEncoder(AdaptiveCompressionOptions.defaults());
        holder.set(e);
        return e;
    }
}
