package org.adaptivecompress.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.handler.codec.compression.Lz4FrameDecoder;
import io.netty.handler.codec.compression.Lz4FrameEncoder;
import io.netty.handler.codec.compression.ZstdDecoder;
import io.netty.handler.codec.compression.ZstdEncoder;
import io.netty.handler.traffic.ChannelTrafficShapingHandler;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.adaptivecompress.engine.CompressionOptions;
import org.adaptivecompress.netty.LoopbackLink.Transport;
import org.adaptivecompress.testing.DataKind;

/**
 * Compares the adaptive handlers with Netty's own {@link ZstdEncoder} (level 3) and
 * {@link Lz4FrameEncoder}, and with no compression, over loopback TCP paced by a
 * {@link PacedLink} at 10, 100 and 1000 Mbit/s. Prints a markdown table: time from first byte
 * written to last byte decoded, the rate the application saw, and the bytes on the wire.
 *
 * <p>Run: {@code mvn -B -o -q -pl netty-codec test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=org.adaptivecompress.netty.NettyLinkBenchmark} (optional arguments: the data
 * kind, MIXED by default; then {@code shaper} to throttle with Netty's
 * {@link ChannelTrafficShapingHandler}, 100 ms check interval, instead). Each cell sends the
 * same data; its size grows with the rate (8, 16, 32 MiB) so that each cell takes a few seconds.
 */
public final class NettyLinkBenchmark {

    private static final long[] MBITS = {10, 100, 1000};
    private static final int[] MIBS = {8, 16, 32};

    private NettyLinkBenchmark() {}

    /** Runs every cell and prints the table. */
    public static void main(String[] args) throws Exception {
        DataKind kind = args.length > 0 ? DataKind.valueOf(args[0]) : DataKind.MIXED;
        boolean shaper = args.length > 1 && args[1].equals("shaper");
        System.out.println("| link | data | contender | seconds | app MB/s | wire/data | rungs (adaptive) |");
        System.out.println("|---|---|---|---:|---:|---:|---|");
        for (int i = 0; i < MBITS.length; i++) {
            byte[] data = kind.generate(MIBS[i] << 20);
            long rate = MBITS[i] * 1_000_000 / 8;
            Supplier<ChannelHandler> link = shaper ? () -> new ChannelTrafficShapingHandler(rate, 0, 100)
                    : () -> new PacedLink(rate);
            AtomicReference<AdaptiveCompressionEncoder> adaptive = new AtomicReference<>();
            run(MBITS[i], kind, data, link, "adaptive (default ladder)",
                    adaptive(CompressionOptions.defaults(), adaptive), AdaptiveCompressionDecoder::new, adaptive);
            // The same rung as Netty's encoder below, through the adaptive encoder's pipeline:
            // what separates the two is the pipeline, not the rung chosen.
            run(MBITS[i], kind, data, link, "adaptive, fixed:3 (zstd:3)",
                    adaptive(CompressionOptions.builder().controller("fixed:3").build(), adaptive),
                    AdaptiveCompressionDecoder::new, adaptive);
            run(MBITS[i], kind, data, link, "Netty ZstdEncoder (level 3)", ZstdEncoder::new, ZstdDecoder::new, null);
            run(MBITS[i], kind, data, link, "Netty Lz4FrameEncoder", Lz4FrameEncoder::new, Lz4FrameDecoder::new,
                    null);
            run(MBITS[i], kind, data, link, "none", ChannelOutboundHandlerAdapter::new,
                    ChannelInboundHandlerAdapter::new, null);
        }
    }

    /** Adaptive encoders with {@code options}, each kept in {@code last} for its statistics. */
    private static Supplier<ChannelHandler> adaptive(CompressionOptions options,
            AtomicReference<AdaptiveCompressionEncoder> last) {
        return () -> {
            AdaptiveCompressionEncoder e = new AdaptiveCompressionEncoder(options);
            last.set(e);
            return e;
        };
    }

    private static void run(long mbits, DataKind kind, byte[] data, Supplier<ChannelHandler> link, String name,
            Supplier<ChannelHandler> encoder, Supplier<ChannelHandler> decoder,
            AtomicReference<AdaptiveCompressionEncoder> adaptive) throws Exception {
        LoopbackLink.Result r = LoopbackLink.transfer(Transport.NIO, link, encoder, decoder, data, true);
        if (Arrays.mismatch(r.received, data) != -1) {
            throw new AssertionError(name + " delivered different bytes");
        }
        double seconds = r.nanos / 1e9;
        System.out.println(String.format(Locale.ROOT, "| %d Mbit/s | %s %d MiB | %s | %.3f | %.1f | %.3f | %s |",
                mbits, kind, data.length >> 20, name, seconds, data.length / seconds / 1e6,
                (double) r.wireBytes / data.length, adaptive == null ? "" : adaptive.get().statistics().blocksByRung()));
    }
}
