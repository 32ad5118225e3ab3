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
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.netty.LoopbackLink.Transport;
import org.adaptivecompress.testing.DataKind;

/**
 * Compares the adaptive handlers with Netty's own {@link ZstdEncoder} (level 3) and
 * {@link Lz4FrameEncoder}, and with no compression, over loopback TCP paced by a
 * {@link PacedLink} at 10, 100 and 1000 Mbit/s. Prints a markdown table: time from first byte
 * written to last byte decoded, the rate the application saw, and the bytes on the wire.
 *
 * <p>Run: {@code mvn -B -o -q -pl netty-codec test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=org.adaptivecompress.netty.NettyLinkBenchmark}, with optional arguments:
 * the data kind (MIXED by default); {@code paced} (the default) or {@code shaper} to throttle
 * with Netty's {@link ChannelTrafficShapingHandler}, 100 ms check interval, instead; and the
 * cells as {@code MBITS:MIB,...} ({@value #DEFAULT_CELLS} by default: each cell's size grows with
 * its rate so that it takes a few seconds). Cells run in the order given, in one JVM, so the
 * first runs cold. Each cell sends the same data to every contender.
 */
public final class NettyLinkBenchmark {

    private static final String DEFAULT_CELLS = "10:8,100:16,1000:32";

    private NettyLinkBenchmark() {}

    /** Runs every cell and prints the table. */
    public static void main(String[] args) throws Exception {
        DataKind kind = args.length > 0 ? DataKind.valueOf(args[0]) : DataKind.MIXED;
        boolean shaper = args.length > 1 && args[1].equals("shaper");
        String[] cells = (args.length > 2 ? args[2] : DEFAULT_CELLS).split(",");
        System.out.println("| link | data | contender | seconds | app MB/s | wire/data | rungs (adaptive) |");
        System.out.println("|---|---|---|---:|---:|---:|---|");
        for (String cell : cells) {
            String[] rateAndSize = cell.trim().split(":");
            long mbits = Long.parseLong(rateAndSize[0]);
            byte[] data = kind.generate(Integer.parseInt(rateAndSize[1]) << 20);
            long rate = mbits * 1_000_000 / 8;
            Supplier<ChannelHandler> link = shaper ? () -> new ChannelTrafficShapingHandler(rate, 0, 100)
                    : () -> new PacedLink(rate);
            AtomicReference<AdaptiveCompressionEncoder> adaptive = new AtomicReference<>();
            run(mbits, kind, data, link, "adaptive (default ladder)",
                    adaptive(AdaptiveCompressionOptions.defaults(), adaptive), AdaptiveCompressionDecoder::new, adaptive);
            // The same rung as Netty's encoder below, through the adaptive encoder's pipeline:
            // what separates the two is the pipeline, not the rung chosen.
            run(mbits, kind, data, link, "adaptive, fixed:3 (zstd:3)",
                    adaptive(AdaptiveCompressionOptions.builder().controller("fixed:3").build(), adaptive),
                    AdaptiveCompressionDecoder::new, adaptive);
            run(mbits, kind, data, link, "Netty ZstdEncoder (level 3)", ZstdEncoder::new, ZstdDecoder::new, null);
            run(mbits, kind, data, link, "Netty Lz4FrameEncoder", Lz4FrameEncoder::new, Lz4FrameDecoder::new,
                    null);
            run(mbits, kind, data, link, "none", ChannelOutboundHandlerAdapter::new,
                    ChannelInboundHandlerAdapter::new, null);
        }
    }

    /** Adaptive encoders with {@code options}, each kept in {@code last} for its statistics. */
    private static Supplier<ChannelHandler> adaptive(AdaptiveCompressionOptions options,
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
