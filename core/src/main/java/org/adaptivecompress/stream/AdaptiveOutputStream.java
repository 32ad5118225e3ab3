package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.engine.AdaptiveCompressor;
import org.adaptivecompress.engine.CompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.engine.RungChangeListener;
import org.adaptivecompress.format.FrameFormat;

/**
 * Compresses everything written to it, picking the codec of each block from how fast the sink
 * drains: AdOC's two-thread pipeline over any {@link OutputStream} or {@link WritableByteChannel}.
 *
 * <p>The writing thread fills a block, compresses it at the rung the controller chose and puts
 * the frame into a bounded FIFO; a sender thread owned by the stream drains the FIFO into the
 * sink. When the sink is slower than the compressor the FIFO fills and the controller climbs to
 * smaller, slower rungs; when the compressor is slower the FIFO drains and it steps down.
 *
 * <ul>
 *   <li>{@link #flush()} returns once every byte written so far has reached the sink and the
 *       sink has been flushed.
 *   <li>{@link #close()} drains the FIFO, writes the end-of-stream marker, closes the sink exactly
 *       once, stops the sender thread and rethrows any failure of the sink.
 *   <li>After the sink fails, every call throws at once, with the sink's exception as cause.
 * </ul>
 *
 * <p>Like most output streams, not safe for concurrent writers; {@link #statistics()} may be
 * called from any thread.
 */
public final class AdaptiveOutputStream extends OutputStream {

    /** Default FIFO capacity, 4 MiB: 32 raw blocks, enough to absorb a slow rung's burst. */
    public static final int DEFAULT_FIFO_CAPACITY = 4 << 20;

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final OutputStream sink;
    private final AdaptiveCompressor compressor;
    private final ByteFifo fifo;
    private final Thread sender;
    private final byte[] block;
    private final byte[] frame;
    private int blockLength;
    private boolean closed;
    private boolean sinkClosed;

    /** Compresses into {@code out} with the default ladder, controller, block size and FIFO. */
    public AdaptiveOutputStream(OutputStream out) {
        this(out, builder());
    }

    private AdaptiveOutputStream(OutputStream out, Builder b) {
        this.sink = Objects.requireNonNull(out, "out is null");
        CompressionOptions options = b.compression.build();
        this.compressor = new AdaptiveCompressor(options);
        this.block = new byte[options.blockSize()];
        this.frame = new byte[AdaptiveCompressor.maxFrameLength(options.blockSize())];
        this.fifo = new ByteFifo(b.fifoCapacity);
        int headerLength = compressor.writeStreamHeader(frame, 0);
        try {
            fifo.put(frame, 0, headerLength); // the FIFO is empty: never waits
        } catch (IOException e) {
            throw new AssertionError("an empty FIFO refused the stream header", e);
        }
        this.sender = b.threadFactory.newThread(() -> fifo.drainTo(sink));
        sender.start();
    }

    /** A builder for streams with other options. */
    public static Builder builder() {
        return new Builder();
    }

    /** A snapshot of the rungs chosen, bytes in and out, and FIFO depth so far. */
    public CompressionStatistics statistics() {
        return compressor.statistics();
    }

    @Override
    public void write(int b) throws IOException {
        ensureWritable();
        block[blockLength++] = (byte) b;
        if (blockLength == block.length) {
            emitBufferedBlock();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureWritable();
        while (len > 0) {
            if (blockLength == 0 && len >= block.length) {
                emit(b, off, block.length); // whole block straight from the caller's array
                off += block.length;
                len -= block.length;
                continue;
            }
            int n = Math.min(len, block.length - blockLength);
            System.arraycopy(b, off, block, blockLength, n);
            blockLength += n;
            off += n;
            len -= n;
            if (blockLength == block.length) {
                emitBufferedBlock();
            }
        }
    }

    /** Compresses what is buffered and returns once every byte written so far has reached the sink. */
    @Override
    public void flush() throws IOException {
        ensureWritable();
        if (blockLength > 0) {
            emitBufferedBlock();
        }
        fifo.awaitFlushed();
    }

    /**
     * Compresses what is buffered, writes the end-of-stream marker, waits for the sender to send
     * everything, and closes the sink. Idempotent.
     *
     * @throws IOException the sink's failure, during this call or earlier
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException error = null;
        try {
            if (fifo.failure() == null) {
                if (blockLength > 0) {
                    emitBufferedBlock();
                }
                int n = compressor.writeEndOfStream(frame, 0);
                fifo.put(frame, 0, n);
            }
        } catch (IOException e) {
            error = e;
        } finally {
            fifo.finish();
            error = merge(error, joinSender());
            compressor.close();
            error = merge(error, closeSink());
        }
        Throwable failure = fifo.failure();
        if (error == null && failure != null) {
            error = ByteFifo.senderFailed(failure);
        }
        if (error != null) {
            throw error;
        }
    }

    private void emitBufferedBlock() throws IOException {
        emit(block, 0, blockLength);
        blockLength = 0;
    }

    /** Compresses one block, lets the controller pick the next rung from the FIFO, and queues the frame. */
    private void emit(byte[] src, int offset, int length) throws IOException {
        long fifoAtStart = fifo.queuedBytes();
        int n = compressor.compressBlock(src, offset, length, frame, 0);
        compressor.update(fifoAtStart, fifo.queuedBytes(), fifo.drainedBytes());
        fifo.put(frame, 0, n);
    }

    private IOException joinSender() {
        try {
            sender.join();
            return null;
        } catch (InterruptedException e) {
            // Give up on an orderly drain: unblock the sender by closing the sink under it.
            sender.interrupt();
            IOException closeFailure = closeSink();
            try {
                sender.join();
            } catch (InterruptedException again) {
                // the sink is closed; the sender ends as soon as its write returns
            }
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while closing");
            if (closeFailure != null) {
                interrupted.addSuppressed(closeFailure);
            }
            return interrupted;
        }
    }

    private IOException closeSink() {
        if (sinkClosed) {
            return null;
        }
        sinkClosed = true;
        try {
            sink.close();
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static IOException merge(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        if (next != null) {
            first.addSuppressed(next);
        }
        return first;
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw new IOException("stream is closed");
        }
        Throwable failure = fifo.failure();
        if (failure != null) {
            throw ByteFifo.senderFailed(failure);
        }
    }

    /** Options of an {@link AdaptiveOutputStream}; every setter checks its argument at once. */
    public static final class Builder {
        private final CompressionOptions.Builder compression = CompressionOptions.builder();
        private int fifoCapacity = DEFAULT_FIFO_CAPACITY;
        private ThreadFactory threadFactory = r -> {
            Thread t = new Thread(r, "adaptive-compress-sender-" + THREAD_IDS.incrementAndGet());
            t.setDaemon(true);
            return t;
        };

        private Builder() {}

        /** All compression options at once (ladder, controller, block size, listener). */
        public Builder compression(CompressionOptions options) {
            Objects.requireNonNull(options, "options is null");
            compression.ladder(options.ladder()).controller(options.controllerFactory())
                    .blockSize(options.blockSize()).listener(options.listener());
            return this;
        }

        /** The ladder to climb; default {@link Ladder#DEFAULT_SPEC}. */
        public Builder ladder(Ladder ladder) {
            compression.ladder(ladder);
            return this;
        }

        /** The ladder as a spec string, e.g. {@code raw,lz4,zstd:3,xz:6}. */
        public Builder ladder(String spec) {
            compression.ladder(spec);
            return this;
        }

        /** Makes this stream's controller; default {@link org.adaptivecompress.control.ThroughputController}. */
        public Builder controller(Supplier<? extends LevelController> factory) {
            compression.controller(factory);
            return this;
        }

        /** The controller by name: {@code adoc} or {@code fixed:N}. */
        public Builder controller(String name) {
            compression.controller(name);
            return this;
        }

        /** Bytes of input per block; default 128 KiB. */
        public Builder blockSize(int blockSize) {
            compression.blockSize(blockSize);
            return this;
        }

        /** Told each time the rung changes, on the writing thread. */
        public Builder listener(RungChangeListener listener) {
            compression.listener(listener);
            return this;
        }

        /** FIFO capacity in bytes, from 1 KiB to 1 GiB; default 4 MiB. */
        public Builder fifoCapacity(int bytes) {
            if (bytes < 1024 || bytes > 1 << 30) {
                throw new IllegalArgumentException("fifoCapacity must be in [1024, 2^30], was " + bytes);
            }
            this.fifoCapacity = bytes;
            return this;
        }

        /** Makes the sender thread; default a daemon thread named {@code adaptive-compress-sender-N}. */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory is null");
            return this;
        }

        /** A stream that compresses into {@code out}; closing the stream closes {@code out}. */
        public AdaptiveOutputStream build(OutputStream out) {
            return new AdaptiveOutputStream(out, this);
        }

        /** A stream that compresses into a blocking {@code channel}; closing the stream closes it. */
        public AdaptiveOutputStream build(WritableByteChannel channel) {
            return build(Channels.newOutputStream(Objects.requireNonNull(channel, "channel is null")));
        }

        @Override
        public String toString() {
            return "AdaptiveOutputStream.Builder{fifoCapacity=" + fifoCapacity + ", maxFrame="
                    + FrameFormat.maxFrameLength(compression.build().blockSize()) + "}";
        }
    }
}
