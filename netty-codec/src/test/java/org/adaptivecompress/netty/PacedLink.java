package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * An emulated link for tests and benchmarks: an outbound handler, placed next to the socket,
 * that passes bytes on at a fixed rate from a token bucket {@value #BURST_MILLIS} ms deep (at
 * least {@value #MIN_BURST_BYTES} bytes), as the core link benchmark's
 * {@code RateLimitedOutputStream} does for streams. A write's promise completes once its last
 * byte has been passed on, so what waits here counts in the encoder's FIFO as what a slow
 * link's socket holds would.
 *
 * <p>Netty's {@code ChannelTrafficShapingHandler} is no such link: it lets writes through at
 * once until its delay for the current check interval passes 10 ms, so with a 100 ms interval
 * it passes frames in bursts of megabytes at memory speed, then holds writes for tens of
 * milliseconds: faster on average than the rate it was given.
 *
 * <p>Writes are taken as flushed. Not sharable: one per channel, on its event loop.
 */
final class PacedLink extends ChannelOutboundHandlerAdapter {

    static final int BURST_MILLIS = 10;
    static final int MIN_BURST_BYTES = 4 * 1024;

    private final double bytesPerNano;
    private final long burstBytes;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private double tokens;
    private long refilledNanos = -1;
    private boolean drainScheduled;

    /** @param bytesPerSecond the link's rate */
    PacedLink(long bytesPerSecond) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytesPerSecond must be positive, was " + bytesPerSecond);
        }
        this.bytesPerNano = bytesPerSecond / 1e9;
        this.burstBytes = Math.max(MIN_BURST_BYTES, bytesPerSecond * BURST_MILLIS / 1000);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf)) {
            ctx.write(msg, promise);
            return;
        }
        queue.add(new Pending((ByteBuf) msg, promise));
        drain(ctx);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        // What is still queued is lost with the link, as a socket's unsent bytes are.
        Pending p;
        while ((p = queue.poll()) != null) {
            p.buf.release();
            p.promise.tryFailure(new ClosedChannelException());
        }
        ctx.close(promise);
    }

    private void drain(ChannelHandlerContext ctx) {
        long now = System.nanoTime();
        if (refilledNanos < 0) {
            tokens = burstBytes;
        } else {
            tokens = Math.min(burstBytes, tokens + (now - refilledNanos) * bytesPerNano);
        }
        refilledNanos = now;
        boolean wrote = false;
        while (!queue.isEmpty() && tokens >= slice(queue.peek())) {
            Pending head = queue.peek();
            int n = (int) Math.min(head.buf.readableBytes(), (long) tokens);
            tokens -= n;
            wrote = true;
            if (n == head.buf.readableBytes()) {
                queue.poll();
                ctx.write(head.buf, head.promise);
            } else {
                ctx.write(head.buf.readRetainedSlice(n)).addListener(f -> {
                    if (!f.isSuccess()) {
                        head.promise.tryFailure(f.cause());
                    }
                });
            }
        }
        if (wrote) {
            ctx.flush();
        }
        if (!queue.isEmpty() && !drainScheduled) {
            drainScheduled = true;
            long wait = (long) Math.max(50_000, (slice(queue.peek()) - tokens) / bytesPerNano);
            ctx.executor().schedule(() -> {
                drainScheduled = false;
                drain(ctx);
            }, wait, TimeUnit.NANOSECONDS);
        }
    }

    /** The tokens the next slice of {@code p} waits for. */
    private long slice(Pending p) {
        return Math.min(p.buf.readableBytes(), burstBytes / 4);
    }

    /** A write waiting for tokens: what is left of its buffer, and its promise. */
    private static final class Pending {
        final ByteBuf buf;
        final ChannelPromise promise;

        Pending(ByteBuf buf, ChannelPromise promise) {
            this.buf = buf;
            this.promise = promise;
        }
    }
}
