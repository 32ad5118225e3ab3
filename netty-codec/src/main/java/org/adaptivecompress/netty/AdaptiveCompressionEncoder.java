package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.UnsupportedMessageTypeException;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.adaptivecompress.internal.engine.SinkMeter;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * Compresses the {@link ByteBuf}s written to a channel into the adaptive-compress frame format,
 * choosing a rung per block from how full the channel's outbound side is.
 *
 * <p><b>Blocks.</b> Written bytes are copied into a block (the message is released at once) of
 * the length the controller chose after the last frame: {@link AdaptiveCompressionOptions#blockSize()}
 * bytes, or up to {@link AdaptiveCompressionOptions#maxBlockSize()} while the link bounds the
 * stream (see {@link org.adaptivecompress.control.LevelController#blockLength}). A full block, or the partial block at
 * {@link #flush}, is compressed into one frame. The stream header goes before the first frame and
 * the end-of-stream marker is written on {@link #close}, before the channel closes.
 *
 * <p><b>Messages.</b> {@link ByteBuf}s are compressed, and so is the {@link ByteBufHolder#content()
 * content} of a {@link ByteBufHolder}. Any other message (a {@code FileRegion}, ...) is released
 * and its write fails with an {@link UnsupportedMessageTypeException}: passed on, it would
 * overtake the bytes still buffered here and land uncompressed inside the compressed stream.
 *
 * <p><b>Threading.</b> Compression runs on the {@link Executor} given to the constructor, never
 * on the event loop, so a slow rung stalls no other channel. Each encoder keeps at most one
 * block on the executor: blocks are compressed in order by one task at a time, which keeps
 * frames in order and lets the controller decide the next block's rung from the last one's
 * outcome. Finished frames come back to the event loop, which writes them. An executor that
 * accepts a block and never runs it (shut down with {@code shutdownNow()}, or a policy that
 * discards tasks) would leave every later write pending: the encoder takes the block back and
 * fails the stream with a {@link RejectedExecutionException} once the executor reports it is shut
 * down, once the channel is closed, or once the block has waited for a start longer than the
 * start timeout (default {@link #DEFAULT_START_TIMEOUT}).
 *
 * <p><b>Promises.</b> A write's promise completes when the frame holding its last byte has been
 * written to the socket (that frame's write future), not when the bytes were buffered here:
 * Netty's own buffering encoders complete it early (netty issue 9281).
 *
 * <p><b>The FIFO the controller watches</b> is the bytes between this encoder and the wire: the
 * larger of the channel's {@link ChannelOutboundBuffer#totalPendingWriteBytes()} and the frames
 * this encoder has written whose write has not completed. The second term matters when a handler
 * between the encoder and the socket queues writes itself, as Netty's traffic shaping handlers
 * do, out of sight of the outbound buffer. Blocks waiting to be compressed are not counted: they
 * wait on the compressor, not on the link, and counting them would push the controller up
 * exactly when compression is the bottleneck.
 *
 * <p><b>Writability.</b> The bytes held uncompressed (the partial block, the blocks waiting for
 * the executor and the one on it) count against the channel's write-buffer water marks: past the
 * high water mark the encoder clears writability bit {@value #WRITABILITY_INDEX}
 * ({@link ChannelOutboundBuffer#setUserDefinedWritability}), so the channel turns unwritable and
 * fires {@code channelWritabilityChanged}; below the low water mark it sets it again. A producer
 * that waits for writability therefore cannot outrun the compressor. Frames count in the
 * outbound buffer's own water marks like any write.
 *
 * <p><b>Failures.</b> Frames carry no sequence numbers, so the stream cannot go on without one of
 * its blocks. When a frame's write fails or a block cannot be compressed, the encoder fails the
 * stream: every write not yet written fails, later writes fail at once, and the channel is
 * closed, so the peer's decoder sees a truncated stream rather than one with a block missing. A
 * compression failure is also fired as {@code exceptionCaught}; a write failure is reported by
 * the write futures only, as Netty does. A {@link #close} queued behind the failure, or whose
 * end-of-stream marker cannot be written, fails with the cause once the channel is closed.
 *
 * <p>One instance per channel; use it from the channel's event loop as Netty does, except
 * {@link #statistics()}, which any thread may call.
 */
public final class AdaptiveCompressionEncoder extends ChannelOutboundHandlerAdapter {

    /**
     * The {@link ChannelOutboundBuffer#setUserDefinedWritability user-defined writability} bit the
     * encoder clears while it holds more uncompressed bytes than the high water mark allows. Not
     * 1 to 3: Netty's traffic shaping handlers, which may sit below the encoder, use those.
     */
    public static final int WRITABILITY_INDEX = 4;

    /**
     * How long a block may wait for the executor to start compressing it before the encoder
     * gives up on the executor: far longer than any legitimate queue, short of a hung shutdown.
     */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

    /** How often a block not yet started is checked on: a shut-down executor is seen this soon. */
    private static final long START_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AdaptiveCompressor compressor;
    /** The length of the next block the writes open: the controller's answer after the last frame, on the event loop. */
    private int nextBlockLength;
    private final Executor executor;
    private final long startTimeoutNanos;

    private ChannelHandlerContext ctx;
    private ByteBuf current;
    private List<ChannelPromise> currentPromises = new ArrayList<>();
    private final ArrayDeque<Block> waiting = new ArrayDeque<>();
    private Block compressing;
    private boolean headerWritten;
    private boolean closing;
    private boolean removed;
    private Throwable failure;
    private long unwrittenFrameBytes;
    private long drainedBytes;
    /**
     * Times the frames' writes to the socket for the controller's link estimate: a frame's
     * write runs from when it is handed to the channel (or the frame before it is written, if
     * later) to when Netty reports it written, so a frame that waited for a full socket shows a
     * stall, as the stream's own writes do. Used on the event loop only.
     */
    private final SinkMeter meter = new SinkMeter(System.nanoTime());
    /** When the last frame's write completed: the next frame's write cannot have started sooner. */
    private long lastWriteEnd = Long.MIN_VALUE;
    /** Uncompressed bytes in the partial block, the waiting blocks and the one compressing. */
    private long heldBytes;
    /** Whether {@link #WRITABILITY_INDEX} is cleared: the encoder holds the channel back. */
    private boolean holdingBack;

    /** An encoder with these options that compresses on the shared default executor. */
    public AdaptiveCompressionEncoder(AdaptiveCompressionOptions options) {
        this(options, CompressionExecutors.shared());
    }

    /**
     * An encoder with these options that compresses on {@code executor}: any executor that
     * runs tasks on threads other than the event loop's (running them inline works, but puts
     * compression back on the event loop).
     */
    public AdaptiveCompressionEncoder(AdaptiveCompressionOptions options, Executor executor) {
        this(options, executor, DEFAULT_START_TIMEOUT);
    }

    /**
     * An encoder as {@link #AdaptiveCompressionEncoder(AdaptiveCompressionOptions, Executor)} that gives
     * up on {@code executor} when it has not started a block within {@code startTimeout}: raise it
     * for an executor shared by many busy channels, whose queue may legitimately be that long.
     */
    public AdaptiveCompressionEncoder(AdaptiveCompressionOptions options, Executor executor, Duration startTimeout) {
        Objects.requireNonNull(options, "options is null");
        this.executor = Objects.requireNonNull(executor, "executor is null");
        Objects.requireNonNull(startTimeout, "startTimeout is null");
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, got " + startTimeout);
        }
        this.startTimeoutNanos = startTimeout.toNanos();
        this.compressor = new AdaptiveCompressor(options);
        this.nextBlockLength = compressor.nextBlockLength();
    }

    /** A snapshot of this encoder's statistics (blocks per rung, bytes in and out); any thread. */
    public CompressionStatistics statistics() {
        return compressor.statistics();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ByteBuf buf = content(msg);
        try {
            if (buf == null) {
                promise.tryFailure(new UnsupportedMessageTypeException(msg, ByteBuf.class, ByteBufHolder.class));
            } else if (failure != null || closing) {
                promise.tryFailure(failure != null ? failure : new ClosedChannelException());
            } else {
                add(buf, promise);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** The bytes to compress: the buffer itself or a holder's content; null for anything else. */
    private static ByteBuf content(Object msg) {
        if (msg instanceof ByteBuf) {
            return (ByteBuf) msg;
        }
        return msg instanceof ByteBufHolder ? ((ByteBufHolder) msg).content() : null;
    }

    /** Copies {@code buf} into blocks, sealing each that fills; the promise joins the block of its last byte. */
    private void add(ByteBuf buf, ChannelPromise promise) {
        hold(buf.readableBytes());
        while (true) {
            if (current == null && buf.isReadable()) {
                current = ctx.alloc().heapBuffer(nextBlockLength, nextBlockLength);
            }
            if (current != null) {
                current.writeBytes(buf, Math.min(buf.readableBytes(), current.writableBytes()));
            }
            boolean last = !buf.isReadable();
            if (last) {
                currentPromises.add(promise);
            }
            if (current != null && !current.isWritable()) {
                seal(false);
                if (failure != null) {
                    // The stream failed as the block left (the executor refused it): so does this write.
                    promise.tryFailure(failure);
                    return;
                }
            }
            if (last) {
                return;
            }
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (current != null || !currentPromises.isEmpty()) {
            seal(true);
        } else if (!waiting.isEmpty()) {
            waiting.peekLast().flush = true;
        } else if (compressing != null) {
            compressing.flush = true;
        } else {
            ctx.flush();
        }
    }

    /**
     * Compresses what is pending, writes the end-of-stream marker, and closes the channel once
     * the marker has been written, so the peer's decoder sees a complete stream.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (closing || failure != null) {
            ctx.close(promise);
            return;
        }
        closing = true;
        if (current != null || !currentPromises.isEmpty()) {
            seal(false);
        }
        waiting.add(new Block(null, Collections.emptyList(), promise));
        startNext();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        removed = true;
        Exception cause = new IllegalStateException(
                "AdaptiveCompressionEncoder was removed from the pipeline before these bytes were written");
        if (current != null) {
            current.release();
            current = null;
        }
        failAll(currentPromises, cause);
        for (Block b = waiting.poll(); b != null; b = waiting.poll()) {
            b.discard(cause);
            if (b.closePromise != null) {
                ctx.channel().close(b.closePromise);
            }
        }
        abandonCompressing(cause);
        // Left cleared, the bit would keep the channel unwritable with nothing here to set it.
        releaseAllHeld();
    }

    private void seal(boolean flush) {
        Block b = new Block(current, currentPromises, null);
        b.flush = flush;
        current = null;
        currentPromises = new ArrayList<>();
        waiting.add(b);
        startNext();
    }

    private void startNext() {
        while (compressing == null && !waiting.isEmpty()) {
            Block b = waiting.poll();
            if (b.closePromise != null) {
                writeEndOfStream(b.closePromise);
            } else if (b.data == null) {
                // Only empty writes since the last block: they complete in order behind it.
                write(Unpooled.EMPTY_BUFFER, b.promises);
                if (b.flush) {
                    ctx.flush();
                }
            } else {
                b.fifoAtStart = fifoBytes();
                boolean header = !headerWritten;
                headerWritten = true;
                compressing = b;
                b.submittedAt = System.nanoTime();
                try {
                    executor.execute(() -> compress(b, header));
                } catch (RejectedExecutionException e) {
                    compressing = null;
                    b.discard(e);
                    failStream(e, true);
                    return;
                }
                scheduleStartCheck(b);
            }
        }
    }

    /**
     * Fails with its promises the block on the executor, unless its task already runs (then
     * the frame and the compressor are released when the task comes back); closes the compressor
     * if nothing is on the executor.
     */
    private void abandonCompressing(Throwable cause) {
        if (compressing == null) {
            compressor.close();
        } else if (compressing.claimed.compareAndSet(false, true)) {
            compressing.discard(cause);
            cancelStartCheck(compressing);
            compressing = null;
            compressor.close();
        } else {
            failAll(compressing.promises, cause);
        }
    }

    private void scheduleStartCheck(Block b) {
        try {
            b.startCheck = ctx.executor().schedule(() -> checkStarted(b),
                    Math.min(START_CHECK_NANOS, startTimeoutNanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException eventLoopGone) {
            // Nothing could write the frame either: compress() fails the block's writes when it returns.
        }
    }

    private static void cancelStartCheck(Block b) {
        if (b.startCheck != null) {
            b.startCheck.cancel(false);
        }
    }

    /**
     * On the event loop: takes back a block the executor has not started if it never will (shut
     * down, or past the start timeout) or need not (the channel closed), and fails the stream.
     */
    private void checkStarted(Block b) {
        if (compressing != b || b.claimed.get()) {
            return;
        }
        String why = null;
        if (executor instanceof ExecutorService && ((ExecutorService) executor).isShutdown()) {
            why = "the compression executor was shut down before it ran the block";
        } else if (!ctx.channel().isOpen()) {
            why = "the channel closed while the block waited for the compression executor";
        } else if (System.nanoTime() - b.submittedAt >= startTimeoutNanos) {
            why = "the compression executor accepted the block but did not start it within "
                    + Duration.ofNanos(startTimeoutNanos) + " (does it discard tasks?)";
        }
        if (why == null) {
            scheduleStartCheck(b);
        } else {
            failStream(new RejectedExecutionException(why), true); // takes the block back if still unstarted
        }
    }

    /** Runs on the executor, unless the event loop took the block back first. */
    private void compress(Block b, boolean header) {
        if (!b.claimed.compareAndSet(false, true)) {
            return;
        }
        ByteBuf data = b.data;
        ByteBuf frame = null;
        try {
            int length = data.readableBytes();
            int room = AdaptiveCompressor.maxFrameLength(length) + (header ? FrameFormat.STREAM_HEADER_LENGTH : 0);
            frame = ctx.alloc().heapBuffer(room, room);
            byte[] dst = frame.array();
            int base = frame.arrayOffset() + frame.writerIndex();
            int n = header ? compressor.writeStreamHeader(dst, base) : 0;
            n += compressor.compressBlock(data.array(), data.arrayOffset() + data.readerIndex(), length, dst, base + n);
            frame.writerIndex(frame.writerIndex() + n);
            b.frame = frame;
        } catch (Throwable t) {
            if (frame != null) {
                frame.release();
            }
            b.error = t;
        } finally {
            data.release();
            b.data = null;
        }
        try {
            ctx.executor().execute(() -> compressed(b));
        } catch (RejectedExecutionException e) {
            // The handler's executor (the event loop, or the group it was added with) is gone:
            // nothing will write these bytes, so their writes fail here rather than hang (a
            // promise may be completed from any thread).
            if (b.frame != null) {
                b.frame.release();
            }
            failAll(b.promises, e);
            compressor.close();
        }
    }

    /** Back on the event loop with the block's frame (or its failure). */
    private void compressed(Block b) {
        compressing = null;
        cancelStartCheck(b);
        if (removed || failure != null) {
            // Its promises were failed with the rest; the compressor waited for this task to close.
            if (b.frame != null) {
                b.frame.release();
            }
            compressor.close();
            return;
        }
        releaseHeld(b.length);
        if (b.error != null) {
            failAll(b.promises, b.error);
            failStream(b.error, true);
            return;
        }
        compressor.update(new PipelineSample(b.fifoAtStart, fifoBytes(), drainedBytes, 0,
                meter.sample(System.nanoTime())));
        nextBlockLength = compressor.nextBlockLength(); // no block is compressing: the controller is this thread's
        write(b.frame, b.promises);
        if (b.flush) {
            ctx.flush();
        }
        startNext();
    }

    private void writeEndOfStream(ChannelPromise closePromise) {
        ByteBuf marker = ctx.alloc().heapBuffer(FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH);
        byte[] dst = marker.array();
        int base = marker.arrayOffset() + marker.writerIndex();
        int n = headerWritten ? 0 : compressor.writeStreamHeader(dst, base);
        headerWritten = true;
        n += compressor.writeEndOfStream(dst, base + n);
        marker.writerIndex(marker.writerIndex() + n);
        ChannelFuture written = write(marker, Collections.emptyList());
        ctx.flush();
        // Closing before the marker leaves would fail it: close() fails writes still queued.
        written.addListener(f -> {
            compressor.close();
            if (f.isSuccess()) {
                ctx.close(closePromise);
            } else {
                // The peer never sees the stream end: the close must not report success.
                failAfterClose(closePromise, f.cause());
            }
        });
    }

    private ChannelFuture write(ByteBuf frame, List<ChannelPromise> promises) {
        int length = frame.readableBytes();
        unwrittenFrameBytes += length;
        long handedAt = System.nanoTime();
        ChannelFuture future = ctx.write(frame);
        future.addListener(f -> {
            unwrittenFrameBytes -= length;
            long now = System.nanoTime();
            meter.writeStarted(Math.max(handedAt, lastWriteEnd), length);
            meter.writeEnded(now, f.isSuccess() ? length : 0);
            lastWriteEnd = now;
            if (f.isSuccess()) {
                drainedBytes += length;
                for (ChannelPromise p : promises) {
                    p.trySuccess();
                }
            } else {
                failAll(promises, f.cause());
                // Writing the frames behind it would hand the peer a stream missing this block.
                failStream(f.cause(), false);
            }
        });
        return future;
    }

    /**
     * The stream cannot go on after a lost block, since frames carry no sequence numbers: fails
     * every write not yet written, releases what is held, and closes the channel, which also fails
     * the frames still queued below, so the peer sees the stream cut short. Only the first
     * failure counts; later ones are the consequences of it.
     *
     * @param report whether to fire {@code exceptionCaught}: yes for the encoder's own failures;
     *     a failed write is already reported by its future, as Netty reports it
     */
    private void failStream(Throwable cause, boolean report) {
        if (failure != null || removed) {
            return;
        }
        failure = cause;
        ChannelPromise closePromise = null;
        for (Block w = waiting.poll(); w != null; w = waiting.poll()) {
            w.discard(cause);
            if (w.closePromise != null) {
                closePromise = w.closePromise;
            }
        }
        if (current != null) {
            current.release();
            current = null;
        }
        failAll(currentPromises, cause);
        currentPromises = new ArrayList<>();
        abandonCompressing(cause);
        releaseAllHeld();
        if (report) {
            ctx.fireExceptionCaught(cause);
        }
        if (closePromise != null) {
            failAfterClose(closePromise, cause);
        } else {
            ctx.close();
        }
    }

    /** Closes the channel, then fails {@code closePromise}: the stream it was to end did not end. */
    private void failAfterClose(ChannelPromise closePromise, Throwable cause) {
        ctx.close().addListener(f -> closePromise.tryFailure(cause));
    }

    /** Counts {@code n} more bytes held uncompressed; past the high water mark, holds the channel back. */
    private void hold(long n) {
        heldBytes += n;
        if (!holdingBack && heldBytes > ctx.channel().config().getWriteBufferHighWaterMark()) {
            setWritable(false);
        }
    }

    /** Counts {@code n} bytes no longer held; below the low water mark, lets the channel go. */
    private void releaseHeld(long n) {
        heldBytes -= n;
        // Zero too: a low water mark of 0 must not keep the channel unwritable for good.
        if (holdingBack && (heldBytes < ctx.channel().config().getWriteBufferLowWaterMark() || heldBytes == 0)) {
            setWritable(true);
        }
    }

    private void releaseAllHeld() {
        releaseHeld(heldBytes);
    }

    private void setWritable(boolean writable) {
        holdingBack = !writable;
        // Channel has no public API for a writability bit; Netty's traffic shaping handlers reach
        // it the same way. The buffer is null once the channel is closed: nothing to hold back.
        ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        if (outbound != null) {
            outbound.setUserDefinedWritability(WRITABILITY_INDEX, writable);
        }
    }

    private long fifoBytes() {
        // No public API gives this number: Channel#bytesBeforeUnwritable() is the high water mark
        // less it, clipped at zero, and zero whenever any writability bit (this encoder's too) is
        // cleared.
        ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        long pending = outbound == null ? 0 : outbound.totalPendingWriteBytes();
        return Math.max(pending, unwrittenFrameBytes);
    }

    private static void failAll(List<ChannelPromise> promises, Throwable cause) {
        for (ChannelPromise p : promises) {
            p.tryFailure(cause);
        }
    }

    /** One block on its way to the wire: its bytes, the writes it completes, then its frame. */
    private static final class Block {
        /** Null once released, and for blocks of empty writes or the end of stream. */
        ByteBuf data;
        /** The uncompressed bytes it holds, counted as held until its frame is back. */
        final int length;
        final List<ChannelPromise> promises;
        final ChannelPromise closePromise;
        boolean flush;
        long fifoAtStart;
        ByteBuf frame;
        Throwable error;
        /** Set by whichever takes the block first: its compression task, or the event loop giving up on it. */
        final AtomicBoolean claimed = new AtomicBoolean();
        long submittedAt;
        ScheduledFuture<?> startCheck;

        Block(ByteBuf data, List<ChannelPromise> promises, ChannelPromise closePromise) {
            this.data = data;
            this.length = data == null ? 0 : data.readableBytes();
            this.promises = promises;
            this.closePromise = closePromise;
        }

        void discard(Throwable cause) {
            if (data != null) {
                data.release();
                data = null;
            }
            failAll(promises, cause);
        }
    }
}
