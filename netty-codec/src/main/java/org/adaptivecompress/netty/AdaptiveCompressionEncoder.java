package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.adaptivecompress.engine.AdaptiveCompressor;
import org.adaptivecompress.engine.CompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.format.FrameFormat;

/**
 * Compresses the {@link ByteBuf}s written to a channel into the adaptive-compress frame format,
 * choosing a rung per block from how full the channel's outbound side is.
 *
 * <p><b>Blocks.</b> Written bytes are copied into a block of {@link CompressionOptions#blockSize()}
 * bytes (the message is released at once); a full block, or the partial block at
 * {@link #flush}, is compressed into one frame. The stream header goes before the first frame and
 * the end-of-stream marker is written on {@link #close}, before the channel closes.
 *
 * <p><b>Threading.</b> Compression runs on the {@link Executor} given to the constructor, never
 * on the event loop, so a slow rung stalls no other channel. Each encoder keeps at most one
 * block on the executor: blocks are compressed in order by one task at a time, which keeps
 * frames in order and lets the controller decide the next block's rung from the last one's
 * outcome. Finished frames come back to the event loop, which writes them.
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
 * <p>One instance per channel; use it from the channel's event loop as Netty does, except
 * {@link #statistics()}, which any thread may call.
 */
public final class AdaptiveCompressionEncoder extends ChannelOutboundHandlerAdapter {

    private final AdaptiveCompressor compressor;
    private final int blockSize;
    private final Executor executor;

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

    /** An encoder with these options that compresses on the shared default executor. */
    public AdaptiveCompressionEncoder(CompressionOptions options) {
        this(options, CompressionExecutors.shared());
    }

    /**
     * An encoder with these options that compresses on {@code executor}: any executor that
     * runs tasks on threads other than the event loop's (running them inline works, but puts
     * compression back on the event loop).
     */
    public AdaptiveCompressionEncoder(CompressionOptions options, Executor executor) {
        Objects.requireNonNull(options, "options is null");
        this.executor = Objects.requireNonNull(executor, "executor is null");
        this.compressor = new AdaptiveCompressor(options);
        this.blockSize = options.blockSize();
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
        if (!(msg instanceof ByteBuf)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf buf = (ByteBuf) msg;
        try {
            if (failure != null || closing) {
                promise.tryFailure(failure != null ? failure : new ClosedChannelException());
                return;
            }
            while (true) {
                if (current == null && buf.isReadable()) {
                    current = ctx.alloc().heapBuffer(blockSize, blockSize);
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
                }
                if (last) {
                    return;
                }
            }
        } finally {
            buf.release();
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
        if (compressing != null) {
            // Its frame and the compressor are released when the compression task comes back.
            failAll(compressing.promises, cause);
        } else {
            compressor.close();
        }
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
                try {
                    executor.execute(() -> compress(b, header));
                } catch (RejectedExecutionException e) {
                    compressing = null;
                    fail(b, e);
                }
            }
        }
    }

    /** Runs on the executor. */
    private void compress(Block b, boolean header) {
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
            // The event loop is gone, and the channel with it.
            if (b.frame != null) {
                b.frame.release();
            }
            compressor.close();
        }
    }

    /** Back on the event loop with the block's frame (or its failure). */
    private void compressed(Block b) {
        compressing = null;
        if (removed) {
            if (b.frame != null) {
                b.frame.release();
            }
            compressor.close();
            return;
        }
        if (b.error != null) {
            fail(b, b.error);
            return;
        }
        compressor.update(b.fifoAtStart, fifoBytes(), drainedBytes);
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
            ctx.close(closePromise);
        });
    }

    private ChannelFuture write(ByteBuf frame, List<ChannelPromise> promises) {
        int length = frame.readableBytes();
        unwrittenFrameBytes += length;
        ChannelFuture future = ctx.write(frame);
        future.addListener(f -> {
            unwrittenFrameBytes -= length;
            if (f.isSuccess()) {
                drainedBytes += length;
                for (ChannelPromise p : promises) {
                    p.trySuccess();
                }
            } else {
                failAll(promises, f.cause());
            }
        });
        return future;
    }

    /** The stream cannot go on after a lost block: fail it and everything behind it. */
    private void fail(Block b, Throwable cause) {
        failure = cause;
        b.discard(cause);
        for (Block w = waiting.poll(); w != null; w = waiting.poll()) {
            w.discard(cause);
            if (w.closePromise != null) {
                ctx.close(w.closePromise);
            }
        }
        if (current != null) {
            current.release();
            current = null;
        }
        failAll(currentPromises, cause);
        compressor.close();
        ctx.fireExceptionCaught(cause);
    }

    private long fifoBytes() {
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
        final List<ChannelPromise> promises;
        final ChannelPromise closePromise;
        boolean flush;
        long fifoAtStart;
        ByteBuf frame;
        Throwable error;

        Block(ByteBuf data, List<ChannelPromise> promises, ChannelPromise closePromise) {
            this.data = data;
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
