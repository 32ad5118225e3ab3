package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.format.BudgetFrame;

/**
 * The receiver-budget handshake: each peer advertises what its decoder accepts (a
 * {@link ReceiverBudget}) in one budget frame as the channel opens, and compresses only inside
 * what the other advertised. Added by {@link AdaptiveCompression#addNegotiating}; both peers
 * must have it, as both must have TLS.
 *
 * <p>When the channel is active, it writes this peer's budget frame. It then takes the first
 * bytes that arrive for the peer's budget frame; once that is complete, it adds an
 * {@link AdaptiveCompressionEncoder} whose options are {@linkplain AdaptiveCompressionOptions#within
 * narrowed to the peer's budget} in its own place, passes on the bytes that followed the frame,
 * and leaves the pipeline. Writes made before then wait here (they count against the channel's
 * writability, as Netty's {@link PendingWriteQueue} counts them) and go through the encoder in
 * order; the encoder is not made before the budget is known, so no block can exceed it.
 *
 * <p>If the peer's first bytes are not a budget frame, the channel fails with the core's typed
 * {@link FrameFormatException} (a {@code BadMagicException} for a peer without the handshake); if
 * no frame is complete within the timeout, or the channel closes first, with a
 * {@link BudgetHandshakeException}. Either way the waiting writes fail with the same exception and
 * the channel is closed. One instance per channel.
 */
public final class ReceiverBudgetHandshake extends ChannelDuplexHandler {

    /** How long to wait for the peer's budget by default: far longer than a round trip, short of a hang. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final ReceiverBudget ownBudget;
    private final AdaptiveCompressionOptions options;
    private final Executor executor;
    private final long timeoutNanos;

    private ChannelHandlerContext ctx;
    /** Completed on the event loop; its listeners run there. */
    private final Promise<AdaptiveCompressionEncoder> encoder = ImmediateEventExecutor.INSTANCE.newPromise();
    private PendingWriteQueue pending;
    private ByteBuf received;
    private boolean advertised;
    private boolean flushRequested;
    /** Whether the handshake is over, completed or failed: from then on it only passes events on. */
    private boolean done;
    private boolean failed;
    private ScheduledFuture<?> timeout;
    private ReceiverBudget peerBudget;

    /**
     * A handshake that advertises {@code ownBudget} and, once the peer's budget is known,
     * compresses with {@code options} narrowed to it on {@code executor}, waiting at most
     * {@code timeout} for the peer.
     */
    public ReceiverBudgetHandshake(ReceiverBudget ownBudget, AdaptiveCompressionOptions options, Executor executor,
            Duration timeout) {
        this.ownBudget = Objects.requireNonNull(ownBudget, "ownBudget is null");
        this.options = Objects.requireNonNull(options, "options is null");
        this.executor = Objects.requireNonNull(executor, "executor is null");
        Objects.requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        this.timeoutNanos = timeout.toNanos();
    }

    /** The encoder, once the peer's budget has arrived; failed if the handshake fails. */
    public Future<AdaptiveCompressionEncoder> encoder() {
        return encoder;
    }

    /** The peer's budget, or null before it has arrived. Use from the channel's event loop, or after {@link #encoder()} completes. */
    public ReceiverBudget peerBudget() {
        return peerBudget;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.pending = new PendingWriteQueue(ctx);
        this.received = ctx.alloc().heapBuffer(BudgetFrame.HEADER_LENGTH);
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start();
        ctx.fireChannelActive();
    }

    /** Advertises this peer's budget and starts the clock on the peer's. */
    private void start() {
        if (advertised) {
            return;
        }
        advertised = true;
        ctx.writeAndFlush(Unpooled.wrappedBuffer(BudgetFrame.encode(ownBudget)));
        readIfNotAutoRead();
        timeout = ctx.executor().schedule(() -> fail(new BudgetHandshakeException("no receiver budget from "
                + ctx.channel().remoteAddress() + " within " + Duration.ofNanos(timeoutNanos).toMillis()
                + " ms: does the peer run the handshake (AdaptiveCompression.addNegotiating)?")),
                timeoutNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (failed) {
            ReferenceCountUtil.release(msg); // the channel is closing: nothing after a bad handshake is read
            return;
        }
        if (done || !(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        try {
            ReceiverBudget budget = take(in);
            if (budget != null) {
                complete(budget, in);
            }
        } catch (FrameFormatException e) {
            fail(e);
        } finally {
            in.release();
        }
    }

    /** Adds what arrived to the frame; the peer's budget once the frame is whole, else null. */
    private ReceiverBudget take(ByteBuf in) throws FrameFormatException {
        int need = BudgetFrame.HEADER_LENGTH;
        if (received.readableBytes() >= BudgetFrame.HEADER_LENGTH) {
            need = BudgetFrame.frameLength(received.array(), received.arrayOffset());
        }
        while (in.isReadable()) {
            received.writeBytes(in, Math.min(in.readableBytes(), need - received.readableBytes()));
            if (received.readableBytes() < need) {
                return null;
            }
            if (need == BudgetFrame.HEADER_LENGTH) {
                need = BudgetFrame.frameLength(received.array(), received.arrayOffset());
                received.ensureWritable(need - BudgetFrame.HEADER_LENGTH);
            } else {
                return BudgetFrame.decode(received.array(), received.arrayOffset());
            }
        }
        return null;
    }

    /** Puts the encoder in place, sends the waiting writes through it, passes on what followed, and leaves. */
    private void complete(ReceiverBudget budget, ByteBuf rest) {
        done = true;
        peerBudget = budget;
        timeout.cancel(false);
        releaseReceived();
        AdaptiveCompressionEncoder enc = new AdaptiveCompressionEncoder(options.within(budget), executor);
        ctx.pipeline().addBefore(ctx.name(), AdaptiveCompression.ENCODER_NAME, enc);
        pending.removeAndWriteAll();
        if (flushRequested) {
            ctx.flush();
        }
        encoder.trySuccess(enc);
        if (rest.isReadable()) {
            ctx.fireChannelRead(rest.retain());
        }
        ctx.pipeline().remove(this);
    }

    /** Asks for more of the peer's frame on a channel that reads only when asked, as TLS's handshake does. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!done) {
            readIfNotAutoRead();
        }
        ctx.fireChannelReadComplete();
    }

    private void readIfNotAutoRead() {
        if (!ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (failed) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new BudgetHandshakeException("the receiver-budget handshake failed; see the channel's"
                    + " exceptionCaught"));
        } else if (done) {
            ctx.write(msg, promise);
        } else {
            pending.add(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (done || pending.isEmpty()) {
            ctx.flush(); // this peer's own budget frame, or nothing waiting
        } else {
            flushRequested = true;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!done) {
            fail(new BudgetHandshakeException("the channel to " + ctx.channel().remoteAddress()
                    + " closed before the peer's receiver budget arrived"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!done) {
            fail(new BudgetHandshakeException("the handshake was removed from the pipeline before the peer's"
                    + " receiver budget arrived"));
        }
        releaseReceived();
    }

    /** Fails the handshake once: the waiting writes and the encoder's future with {@code cause}, then the channel. */
    private void fail(Throwable cause) {
        if (done) {
            return;
        }
        done = true;
        failed = true;
        if (timeout != null) {
            timeout.cancel(false);
        }
        releaseReceived();
        pending.removeAndFailAll(cause);
        encoder.tryFailure(cause);
        ctx.fireExceptionCaught(cause);
        ctx.close();
    }

    private void releaseReceived() {
        if (received != null) {
            received.release();
            received = null;
        }
    }
}
