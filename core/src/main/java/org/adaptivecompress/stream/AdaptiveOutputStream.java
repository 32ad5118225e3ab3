package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.adaptivecompress.internal.engine.SinkMeter;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.metrics.StatisticsGroup;

/**
 * Compresses everything written to it, picking the codec of each block from how fast the sink
 * drains: AdOC's two-thread pipeline over any {@link OutputStream} or {@link WritableByteChannel}.
 *
 * <p>The writing thread fills a block, compresses it at the rung the controller chose and puts
 * the frame into a bounded FIFO; a sender thread owned by the stream drains the FIFO into the
 * sink. When the sink is slower than the compressor the FIFO fills and the controller climbs to
 * smaller, slower rungs; when the compressor is slower the FIFO drains and it steps down. The
 * sender starts when the first block fills: a stream flushed or closed before that, a short
 * message, is sent by the writing thread itself and starts no thread.
 *
 * <ul>
 *   <li>{@link #flush()} returns once every byte written so far has reached the sink and the
 *       sink has been flushed.
 *   <li>{@link #close()} drains the FIFO, writes the end-of-stream marker, closes the sink exactly
 *       once, stops the sender thread and rethrows any failure of the sink.
 *   <li>After the sink fails, every call throws at once, with the sink's exception as cause.
 * </ul>
 *
 * <p>A raw block is written to the sink by the writing thread itself when the FIFO is empty,
 * or, after another raw block, once the sender has emptied it, when the controller learns the
 * link from such writes too ({@link
 * LevelController#learnsFromDirectWrites()}: the default controller and fixed rungs do, AdOC's
 * rule, which reads the link from the FIFO alone, does not). The order of the stream's bytes
 * is kept: the FIFO is empty and only the writer fills it. With parallel compression, only
 * while one worker is tuned, when the writer compresses the blocks itself.
 * For this, a block to be stored raw holds a block header's length less than the block size:
 * its frame is the block size exactly and leaves in whole 64 KiB writes.
 *
 * <p>Frames still queued when the controller climbs are compressed again, at a rung up to its
 * new one, before the sender reaches them, where the controller finds that the slower link
 * repays it
 * ({@link LevelController#recompressRung}: the default controller does, AdOC's rule and fixed
 * rungs never): what the FIFO holds when the link drops would otherwise cross it at the ratio
 * chosen for the faster link. The sender keeps writing the frames before the first one taken
 * back. With parallel compression too: the writer queues the workers' frames in block order,
 * and compresses frames again on its own thread. Not with histories; the first time it takes
 * frames back, the stream allocates a buffer as large as its FIFO.
 *
 * <p>Until the link has shown its rate, to the sink's writes and to the controller, the writer
 * compresses a block only once the sink has taken the frames before it: the blocks after are
 * compressed knowing the link, rather than a short transfer's whole input at the rung guessed
 * before it.
 *
 * <p><b>Parallel compression</b>, off by default: with {@link Builder#maxWorkers(int)
 * maxWorkers(n)} above 1, blocks are compressed by up to {@code n} worker threads while the
 * writer fills the next ones, and their frames join the FIFO strictly in block order, so the
 * output is a valid stream like any other. The writer copies each block into one of at most
 * {@code n + 1} buffer slots and never has more blocks in flight than the number of workers
 * currently tuned, {@code k}; it waits for the oldest when that many are. {@code k} starts at 1
 * and is tuned at run time to the smallest count that gives the best goodput (input bytes
 * whose frames were queued per second), by a golden-section search repeated when the goodput
 * moves, so workers are only used while they pay. With {@code k} at 1 the writer compresses
 * each block itself, once the blocks in flight are queued, as a stream without workers does:
 * a single worker would only add a hand-off, and a thread on cores the sender and the
 * receiver share. The rung controller sees blocks in order,
 * each block's compression time divided by {@code k} (see
 * {@link org.adaptivecompress.control.Observation#compressNanos()}). A finished frame joins the
 * FIFO on the writer's next {@code write}, {@code flush} or {@code close}. A failure of a
 * worker's codec makes every later call throw an {@link IOException}, like a failure of the
 * sink; {@link #close()} stops and joins the workers and frees their native compressors in
 * every case.
 *
 * <p>Like most output streams, not safe for concurrent writers; {@link #statistics()} may be
 * called from any thread.
 */
public final class AdaptiveOutputStream extends OutputStream {

    /**
     * Default FIFO capacity, 1 MiB: eight raw blocks, 80 ms of a 100 Mbit/s link, enough to
     * keep the link busy through a slow rung's block. Not more, because whatever the FIFO holds
     * when the link slows crosses at the slower rate: 4 MiB of LZ4 frames queued for 1 Gbit/s
     * take over three seconds at 10 Mbit/s.
     */
    public static final int DEFAULT_FIFO_CAPACITY = 1 << 20;
    /**
     * What the FIFO's ring, the block and the frame buffer start at: a short message (a Kafka
     * record, a SequenceFile value) fits in them, and a longer stream doubles them as it goes,
     * to their full sizes (the FIFO's capacity, the block's length and its frame's most) with
     * its first block, and the block and frame on as blocks grow. Allocating
     * the full sizes for a 232-byte stream would take longer than all else it does
     * ({@code ShortStreamBenchmark} times such a stream).
     */
    static final int SHORT_STREAM_BUFFERS = 2 << 10;
    /** The most compression workers a stream can have. */
    public static final int MAX_WORKERS = 256;

    private static final AtomicInteger SENDER_IDS = new AtomicInteger();
    private static final AtomicInteger WORKER_IDS = new AtomicInteger();
    private static final ThreadFactory SENDER_THREADS = daemonThreads("adaptive-compress-sender-", SENDER_IDS);
    private static final ThreadFactory WORKER_THREADS = daemonThreads("adaptive-compress-worker-", WORKER_IDS);

    /** The caller's sink, metered: the controller reads the link from its writes' times. */
    private final OutputStream sink;
    private final SinkMeter meter;
    private final AdaptiveCompressor compressor;
    private final ByteFifo fifo;
    private final ThreadFactory senderThreads;
    /** Whether the last frame of the writer's own was raw: only then is the FIFO waited on for a raw one. */
    private boolean lastFrameRaw;
    /** Drains the FIFO into the sink; {@code null} until {@link #startSender()}. */
    private Thread sender;
    /** Compresses blocks on worker threads; {@code null} when the writer compresses them itself. */
    private final WorkerPool workers;
    /** The frames in the FIFO, to compress again when the link slows; {@code null} with histories. */
    private final QueuedFrames queued;
    /** The block being filled: the stream's own, or a worker slot's input buffer. */
    private byte[] block;
    /**
     * Where the block's bytes start in {@link #block}: after room for a raw frame's header (see
     * {@link #sendRawDirectly}), in the stream's own block and in a worker's slot alike.
     */
    static final int BLOCK_START = FrameFormat.BLOCK_HEADER_LENGTH;
    /**
     * The bytes the block being filled takes: the length the controller chose for it
     * ({@link AdaptiveCompressor#nextBlockLength()}), less a block header's length when the
     * writer is to store it raw, so that its frame is exactly that length.
     */
    private int blockLimit;
    /** Where the writer compresses blocks; with workers, only the stream header and end marker. */
    private byte[] frame;
    private int blockLength;
    private final int streamHeaderLength;
    /** Whether the sink's writes have shown the link (see {@link #awaitTheLinkAtStartup()}). */
    private boolean linkShown;
    private boolean closed;
    private boolean sinkClosed;
    /**
     * What escaped the writer's compressing and queueing of a block, if anything did: the FIFO
     * may then hold part of a frame, or lack frames taken back to be compressed again, so the
     * stream refuses further writes and closes without its end marker, and a reader sees it
     * truncated rather than whole with blocks missing.
     */
    private Throwable broken;
    /** Whether a stream's header is queued and its end marker not: false after {@link #finish()}. */
    private boolean streamOpen = true;

    /** Compresses into {@code out} with the default ladder, controller, block size and FIFO. */
    public AdaptiveOutputStream(OutputStream out) {
        this(out, builder());
    }

    private AdaptiveOutputStream(OutputStream out, Builder b) {
        Objects.requireNonNull(out, "out is null");
        this.meter = new SinkMeter(System.nanoTime());
        this.sink = new MeteredSink(out, meter);
        AdaptiveCompressionOptions options = b.budget == null ? b.compression.build()
                : b.compression.build().within(b.budget, b.maxWorkers);
        this.compressor = new AdaptiveCompressor(options);
        this.fifo = new ByteFifo(SHORT_STREAM_BUFFERS, b.fifoCapacity, meter);
        if (b.maxWorkers == 1) {
            this.workers = null;
            int shortBlock = Math.min(options.blockSize(), SHORT_STREAM_BUFFERS);
            this.block = new byte[BLOCK_START + shortBlock];
            this.frame = new byte[AdaptiveCompressor.maxFrameLength(shortBlock)];
            this.queued = queuedFrames(options, b.fifoCapacity);
        } else {
            ThreadFactory factory = b.threadFactory != null ? b.threadFactory : WORKER_THREADS;
            this.queued = queuedFrames(options, b.fifoCapacity);
            this.workers = new WorkerPool(compressor, fifo, this::queueCompressed, b.tunerFactory.apply(b.maxWorkers),
                    b.maxWorkers, factory, b.beforeEncode);
            this.block = workers.fillBuffer();
            this.frame = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
        }
        this.blockLimit = nextBlockLimit();
        this.streamHeaderLength = compressor.writeStreamHeader(frame, 0);
        try {
            fifo.put(frame, 0, streamHeaderLength); // the FIFO is empty: never waits
        } catch (IOException e) {
            throw new AssertionError("an empty FIFO refused the stream header", e);
        }
        this.senderThreads = b.threadFactory != null ? b.threadFactory : SENDER_THREADS;
        if (workers != null) {
            startSender(); // the workers' frames join the FIFO whenever the writer calls
        }
    }

    /** Where the stream keeps its queued frames to compress again; {@code null} with histories, whose frames never are. */
    private QueuedFrames queuedFrames(AdaptiveCompressionOptions options, int fifoCapacity) {
        return options.history() ? null : new QueuedFrames(compressor.ladder().size(), fifoCapacity,
                AdaptiveCompressor.maxFrameLength(options.maxBlockSize()));
    }

    /** A builder for streams with other options. */
    public static Builder builder() {
        return new Builder();
    }

    /** A snapshot of the rungs chosen, bytes in and out, FIFO depth and workers so far. */
    public CompressionStatistics statistics() {
        return compressor.statistics();
    }

    @Override
    public void write(int b) throws IOException {
        ensureWritable();
        if (!streamOpen) {
            beginStream();
        }
        if (BLOCK_START + blockLength == block.length) {
            growBlock(blockLength + 1);
        }
        block[BLOCK_START + blockLength++] = (byte) b;
        if (blockLength == blockLimit) {
            startSender();
            emitBufferedBlock();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureWritable();
        if (!streamOpen && len > 0) {
            beginStream();
        }
        while (len > 0) {
            if (blockLength + len >= blockLimit) {
                startSender(); // a block fills: the stream is more than a short message
            }
            if (workers == null && blockLength == 0 && len >= blockLimit && !compressor.nextBlockStoredRaw()) {
                int n = blockLimit;
                emit(b, off, n); // whole block straight from the caller's array
                off += n;
                len -= n;
                continue;
            }
            int n = Math.min(len, blockLimit - blockLength);
            if (BLOCK_START + blockLength + n > block.length) {
                growBlock(blockLength + n);
            }
            System.arraycopy(b, off, block, BLOCK_START + blockLength, n);
            blockLength += n;
            off += n;
            len -= n;
            if (blockLength == blockLimit) {
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
        drainWorkers();
        sendEverything();
    }

    /**
     * Ends the stream without closing the sink, as {@code GZIPOutputStream.finish()} ends a gzip
     * member: compresses what is buffered, writes the end-of-stream marker and returns once every
     * byte has reached the sink. The pipeline stays up (sender thread, FIFO, workers, the
     * controller and what it has learnt of the link and the data), and the next write begins a
     * new stream on it, which an {@link AdaptiveInputStream} built with
     * {@link AdaptiveInputStream.Builder#concatenated(boolean) concatenated(true)} reads on from.
     * A caller that sends many short streams so builds the pipeline once instead of for every
     * stream, and keeps what it learnt (a 232-byte stream costs about a quarter of what it does
     * with a pipeline of its own, ShortStreamBenchmark). The native
     * codec contexts, and the sender thread once a block has filled, live until
     * {@link #close()}, so such a caller must close the stream; Hadoop's codec does not use this,
     * since its callers do not all close theirs. A stream that got no bytes is still a
     * stream: calling this with nothing written since the last call writes an empty one (its
     * header and end marker), which a reader reads as no bytes.
     *
     * @throws IOException the sink's or a worker's failure, during this call or earlier
     */
    public void finish() throws IOException {
        ensureWritable();
        if (!streamOpen) {
            beginStream();
        }
        try {
            queueEndOfStream();
        } catch (IOException | RuntimeException | Error e) {
            broken = e;
            throw e;
        }
        sendEverything();
    }

    /** Returns once every byte queued has reached the sink, flushed: sent by the sender, or by this thread before it starts. */
    private void sendEverything() throws IOException {
        if (sender == null) {
            fifo.sendQueued(sink);
        } else {
            fifo.awaitFlushed();
        }
    }

    /**
     * Starts the sender thread, if it has not started. A stream starts it when its first block
     * fills (or with its workers): a short stream flushed or closed before that sends its few
     * bytes on the writer's thread and starts no thread, as a RECORD-compressed SequenceFile's
     * stream per value does (a thread started and joined per value would cost more than the
     * value's compression).
     */
    private void startSender() {
        if (sender == null) {
            fifo.growToCapacity();
            sender = senderThreads.newThread(() -> fifo.drainTo(sink));
            sender.start();
        }
    }

    /**
     * With no sender running, makes room in the FIFO for a put of {@code length} bytes: grows
     * its ring, else sends what is queued on this thread, else (the put is larger than the
     * FIFO) starts the sender.
     */
    private void makeRoomWithoutSender(int length) throws IOException {
        if (sender != null || fifo.growFor(length)) {
            return;
        }
        fifo.sendQueued(sink);
        if (!fifo.growFor(length)) {
            startSender();
        }
    }

    /**
     * Has the workers' every block queued, if there are workers, the stream marked
     * {@link #broken} by anything that escapes: queueing a frame may compress queued frames
     * again, and a failure there leaves frames taken back out of the FIFO.
     */
    private void drainWorkers() throws IOException {
        if (workers == null) {
            return;
        }
        try {
            workers.drain();
        } catch (IOException | RuntimeException | Error e) {
            broken = e;
            throw e;
        }
    }

    /** Compresses what is buffered and queues the end-of-stream marker behind it. */
    private void queueEndOfStream() throws IOException {
        if (blockLength > 0) {
            emitBufferedBlock();
        }
        drainWorkers();
        queueUnchangeable(compressor.writeEndOfStream(frame, 0));
        streamOpen = false;
    }

    /**
     * Queues {@code frame[0, n)}, an end marker or a stream header, and has {@link #queued}
     * keep its place: frames still queued behind a {@link #finish()} whose wait for the sink was
     * interrupted may be taken back and put back around it.
     */
    private void queueUnchangeable(int n) throws IOException {
        makeRoomWithoutSender(n);
        long start = fifo.putPosition();
        fifo.put(frame, 0, n);
        if (queued != null) {
            queued.add(start, n, -1);
        }
    }

    /** Queues the header of a stream after the one {@link #finish()} ended. */
    private void beginStream() throws IOException {
        try {
            compressor.beginNextStream();
            queueUnchangeable(compressor.writeStreamHeader(frame, 0));
            streamOpen = true;
        } catch (IOException | RuntimeException | Error e) {
            broken = e;
            throw e;
        }
    }

    /**
     * Compresses what is buffered, writes the end-of-stream marker (none if {@link #finish()}
     * ended the stream and nothing was written since), waits for the sender to send everything,
     * and closes the sink. Idempotent. Stops and joins the compression workers, if
     * any, and frees every native compressor, whatever failed.
     *
     * <p>After a worker's failure, or any failure of an earlier write, no end marker is written:
     * a reader sees the stream truncated rather than missing a block.
     *
     * @throws IOException the sink's, a worker's or an earlier write's failure, during this call
     *     or earlier
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException error = null;
        try {
            if (streamOpen && broken == null && fifo.failure() == null
                    && (workers == null || workers.failure() == null)) {
                queueEndOfStream();
            }
        } catch (IOException e) {
            error = e;
        } catch (RuntimeException | Error e) {
            error = new IOException("compressing the stream's last block failed: " + e, e);
        } finally {
            if (workers != null) {
                workers.close();
            }
            fifo.finish();
            if (sender != null) {
                error = merge(error, joinSender());
            } else if (fifo.failure() == null) {
                fifo.drainTo(sink); // what the sender would do: sends what is queued, flushes, records a failure
            }
            compressor.close();
            error = merge(error, closeSink());
        }
        Throwable failure = fifo.failure();
        if (error == null && failure != null) {
            error = ByteFifo.senderFailed(failure);
        }
        if (error == null && broken != null) {
            error = writeFailed(broken);
        }
        if (error == null && workers != null && workers.failure() != null) {
            error = WorkerPool.workerFailed(workers.failure());
        }
        if (error != null) {
            throw error;
        }
    }

    private void emitBufferedBlock() throws IOException {
        if (workers == null) {
            emit(block, BLOCK_START, blockLength);
        } else {
            try {
                if (workers.writerCompresses()) {
                    compressAndQueue(block, BLOCK_START, blockLength);
                    workers.writerQueued(blockLength);
                } else {
                    awaitTheLinkAtStartup();
                    block = workers.dispatch(blockLength);
                }
            } catch (IOException | RuntimeException | Error e) {
                broken = e;
                throw e;
            }
        }
        blockLength = 0;
    }

    /**
     * Until the link has shown its rate, to the sink's writes ({@link SinkMeter#linkShown()}) and
     * to the controller ({@link AdaptiveCompressor#awaitsTheLink()}), the writer compresses a
     * block only once the sink has taken every frame before it: what it queues before then is
     * compressed at a rung guessed for a link nobody knows, and a kernel's socket buffer swallows
     * the first hundreds of kilobytes at once however slow the link is. A writer waiting here
     * also leaves its core to a sender not yet scheduled. On a fast link the sink takes each
     * frame as it comes.
     */
    private void awaitTheLinkAtStartup() throws IOException {
        if (sender == null) {
            return; // without a sender, the writer sends what it queues itself
        }
        boolean shownToTheMeter = linkShown || (linkShown = meter.linkShown());
        if (shownToTheMeter && !compressor.awaitsTheLink()) {
            return;
        }
        if (fifo.putPosition() <= streamHeaderLength) {
            return; // the first block: nothing but the stream header before it
        }
        if (workers != null) {
            workers.drain(); // their frames are what the sender is to write
        }
        // The meter can show the link during the wait; the controller only at its next decision.
        fifo.awaitDrainedBeyond(fifo.putPosition() - 1, shownToTheMeter ? () -> false : meter::linkShown);
    }

    /** {@link #compressAndQueue}, the stream marked {@link #broken} by anything that escapes it. */
    private void emit(byte[] src, int offset, int length) throws IOException {
        try {
            compressAndQueue(src, offset, length);
        } catch (IOException | RuntimeException | Error e) {
            broken = e;
            throw e;
        }
    }

    /**
     * Compresses one block, lets the controller pick the next rung from the FIFO, compresses
     * again the queued frames it wants at a higher rung (see {@link QueuedFrames}), and queues
     * the frame.
     */
    private void compressAndQueue(byte[] src, int offset, int length) throws IOException {
        awaitTheLinkAtStartup();
        long fifoAtStart = fifo.queuedBytes();
        if (frame.length < AdaptiveCompressor.maxFrameLength(length)) {
            frame = new byte[AdaptiveCompressor.maxFrameLength(length)]; // grows as blocks do
        }
        int n = compressor.compressBlockLeavingRawPayload(src, offset, length, frame, 0);
        queueCompressed(fifoAtStart, frame, n, src, offset, length);
    }

    /**
     * Tells the controller of the block just compressed (its frame in {@code out[0, n)}, or
     * only the frame's header if {@code n} is a header's length, the payload then being the
     * block's bytes {@code src[offset, offset + length)}), compresses again the queued frames
     * and the block that the controller now wants at a higher rung (see {@link QueuedFrames}),
     * and queues the frame, or writes it to the sink (see {@link #sendRawDirectly}). For the
     * writer's own blocks and, in block order, the workers' ({@link WorkerPool}), whose bytes
     * are never in {@link #block} and so never go to the sink from here.
     *
     * @param fifoAtStart the FIFO's depth when the block started being compressed
     */
    private void queueCompressed(long fifoAtStart, byte[] out, int n, byte[] src, int offset, int length)
            throws IOException {
        long recompressNanos = queued == null ? 0 : queued.takeNanos();
        compressor.update(new PipelineSample(fifoAtStart, fifo.queuedBytes(), fifo.drainedBytes(),
                fifo.takeWriterWaitNanos() + recompressNanos, meter.sample(System.nanoTime())));
        blockLimit = nextBlockLimit();
        boolean rawPayloadInSource = n == FrameFormat.BLOCK_HEADER_LENGTH;
        if (queued != null) {
            queued.recompress(fifo, compressor); // the queue first: it reuses the buffer the block's new frame is left in
            int again = queued.recompressNewest(compressor, src, offset, length);
            if (again > 0) {
                out = queued.frame();
                n = again;
                rawPayloadInSource = false;
            }
        }
        boolean previousRaw = lastFrameRaw;
        lastFrameRaw = rawPayloadInSource;
        if (rawPayloadInSource && sendRawDirectly(src, offset, length, previousRaw)) {
            return; // written to the sink: nothing queued
        }
        makeRoomWithoutSender(rawPayloadInSource ? n + length : n);
        long start = fifo.putPosition();
        if (rawPayloadInSource) {
            fifo.put(out, 0, n, src, offset, length); // raw: the payload goes from src to the FIFO in one copy
        } else {
            fifo.put(out, 0, n);
        }
        if (queued != null) {
            queued.add(start, rawPayloadInSource ? n + length : n, compressor.recompressibleRungOfLastBlock());
        }
    }

    /**
     * Writes a raw frame (its header in {@link #frame}, its payload still in {@code src}) to the
     * sink on this thread, after waiting for the sender to write what the FIFO holds, if the
     * controller learns from such writes and the payload is in the stream's own block: on a link
     * faster than every codec, the hand-off to the sender and the FIFO's copy are a large share
     * of raw's time on two cores. After a raw frame ({@code afterRaw}) it first waits for the
     * sender to empty the FIFO, since a writer that refills it as fast as the sender drains it
     * would never find it empty again; after a compressed one it does not, so a raw block
     * between compressed ones never holds the writer up for the link. The header
     * goes into the room in front of the block, so header and payload leave in whole writes of
     * the sender's size:
     * over loopback a write that ends just past a multiple of 64 KiB costs nearly as much again
     * as a whole 64 KiB write (see {@code benchmarks.jar write-patterns}).
     */
    private boolean sendRawDirectly(byte[] src, int offset, int length, boolean afterRaw) throws IOException {
        if (src != block || offset != BLOCK_START || !compressor.learnsFromDirectWrites()) {
            return false;
        }
        int frameStart = BLOCK_START - FrameFormat.BLOCK_HEADER_LENGTH;
        System.arraycopy(frame, 0, block, frameStart, FrameFormat.BLOCK_HEADER_LENGTH);
        if (sender != null && afterRaw) {
            fifo.awaitEmpty(); // a FIFO the writer refills as fast as it drains would never be found empty again
        }
        return fifo.writeThrough(block, frameStart, FrameFormat.BLOCK_HEADER_LENGTH + length, sink);
    }

    /**
     * Grows the block being filled to hold {@code length} bytes, keeping those in it: at least
     * double, at most the longest block; see {@link #SHORT_STREAM_BUFFERS}. A worker's slot
     * grows in its pool.
     */
    private void growBlock(int length) {
        if (workers != null) {
            block = workers.growFillBuffer(length);
            return;
        }
        block = Arrays.copyOf(block, BLOCK_START
                + grownBlockLength(block.length - BLOCK_START, length, compressor.maxBlockLength()));
    }

    /**
     * The length a block buffer holding {@code current} bytes grows to for a block of
     * {@code wanted}: at least double, at most {@code longest}. The stream's own block and the
     * workers' slots grow alike.
     */
    static int grownBlockLength(int current, int wanted, int longest) {
        return (int) Math.min(longest, Math.max(2L * current, wanted));
    }

    /** See {@link #blockLimit}: only a block the writer may send itself is made shorter. */
    private int nextBlockLimit() {
        int size = compressor.nextBlockLength();
        boolean writersOwn = workers == null || workers.writerCompressesNext();
        return writersOwn && compressor.nextBlockStoredRaw() ? size - FrameFormat.BLOCK_HEADER_LENGTH : size;
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

    private static IOException writeFailed(Throwable t) {
        return new IOException("an earlier write failed, so the stream ends without its end marker: " + t, t);
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

    private static ThreadFactory daemonThreads(String prefix, AtomicInteger ids) {
        return r -> {
            Thread t = new Thread(r, prefix + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw new IOException("stream is closed");
        }
        if (broken != null) {
            throw writeFailed(broken);
        }
        Throwable failure = fifo.failure();
        if (failure != null) {
            throw ByteFifo.senderFailed(failure);
        }
        if (workers != null) {
            workers.checkFailure();
        }
    }

    /** Options of an {@link AdaptiveOutputStream}; every setter checks its argument at once. */
    public static final class Builder {
        private AdaptiveCompressionOptions.Builder compression = AdaptiveCompressionOptions.builder();
        private int fifoCapacity = DEFAULT_FIFO_CAPACITY;
        private int maxWorkers = 1;
        /** {@code null}: the default daemon threads, named after what they do. */
        private ThreadFactory threadFactory;
        private IntFunction<WorkerCountTuner> tunerFactory = WorkerCountTuner::new;
        private Runnable beforeEncode = () -> { };
        private ReceiverBudget budget;

        private Builder() {}

        /**
         * Stays inside what the reader advertised: only the rungs it admits, blocks and a window
         * no larger than its limits (see {@link AdaptiveCompressionOptions#within}). None by default.
         */
        public Builder within(ReceiverBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget is null");
            return this;
        }

        /** All compression options at once, replacing any set before (ladder, controller, blocks, listener, histories, statistics group, objective). */
        public Builder compression(AdaptiveCompressionOptions options) {
            compression = Objects.requireNonNull(options, "options is null").toBuilder();
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

        /** Makes this stream's controller; default {@link org.adaptivecompress.control.model.ModelController}. */
        public Builder controller(Supplier<? extends LevelController> factory) {
            compression.controller(factory);
            return this;
        }

        /** The controller by name: {@code model} (the default), {@code adoc} or {@code fixed:N}. */
        public Builder controller(String name) {
            compression.controller(name);
            return this;
        }

        /**
         * Bytes of input per block; default 128 KiB. Without parallel compression a block to be
         * stored raw holds {@value FrameFormat#BLOCK_HEADER_LENGTH} bytes less, so that its frame
         * is this size.
         */
        public Builder blockSize(int blockSize) {
            compression.blockSize(blockSize);
            return this;
        }

        /**
         * The longest block, that blocks grow to while the link bounds the stream; default 1 MiB.
         * See {@link AdaptiveCompressionOptions.Builder#maxBlockSize(int)}.
         */
        public Builder maxBlockSize(int maxBlockSize) {
            compression.maxBlockSize(maxBlockSize);
            return this;
        }

        /**
         * Whether zstd and xz rungs keep a window across blocks; default off. See
         * {@link AdaptiveCompressionOptions.Builder#history(boolean)}.
         */
        public Builder history(boolean history) {
            compression.history(history);
            return this;
        }

        /**
         * How far back a history matches, a power of two from 1 MiB to 64 MiB; default 8 MiB. See
         * {@link AdaptiveCompressionOptions.Builder#historyWindow(int)}.
         */
        public Builder historyWindow(int bytes) {
            compression.historyWindow(bytes);
            return this;
        }

        /**
         * A reset point, where a reader can start, every {@code bytes} of content; 0 (the default)
         * for none. See {@link AdaptiveCompressionOptions.Builder#resetInterval(long)}.
         */
        public Builder resetInterval(long bytes) {
            compression.resetInterval(bytes);
            return this;
        }

        /** Told every decision of the controller, on the compressing thread (see {@link DecisionListener}). */
        public Builder listener(DecisionListener listener) {
            compression.listener(listener);
            return this;
        }

        /**
         * What the controller optimises: {@code time} (the default), {@code cpu-budget:0.3},
         * {@code cost:egress=0.05,cpu=0.00004}; see {@link org.adaptivecompress.control.Objective}.
         */
        public Builder objective(String spec) {
            compression.objective(spec);
            return this;
        }

        /**
         * A group whose statistics count this stream, from its start to its close and after;
         * default none. See {@link AdaptiveCompressionOptions.Builder#statisticsGroup}.
         */
        public Builder statisticsGroup(StatisticsGroup group) {
            compression.statisticsGroup(group);
            return this;
        }

        /**
         * FIFO capacity in bytes, from 1 KiB to 1 GiB; default 1 MiB. Until the sink has taken
         * its first write of block bytes, the writer compresses no more than two blocks ahead
         * of it, whatever the capacity. A stream that compresses queued frames again (see the
         * class Javadoc) allocates a second buffer of this size the first time it does.
         */
        public Builder fifoCapacity(int bytes) {
            if (bytes < 1024 || bytes > 1 << 30) {
                throw new IllegalArgumentException("fifoCapacity must be in [1024, 2^30], was " + bytes);
            }
            this.fifoCapacity = bytes;
            return this;
        }

        /**
         * The most worker threads that compress blocks side by side, from 1 to
         * {@value AdaptiveOutputStream#MAX_WORKERS}; default 1: every block is compressed on the
         * writing thread and the stream starts no thread but its sender.
         *
         * <p>Above 1, the stream starts workers as its tuner asks for them and tunes how many
         * compress at once, from 1 up to this bound, to the goodput it measures (see the class
         * Javadoc), searching for more only while the codec takes enough of the writer's time
         * for them to pay (a stream held raw, or waiting on its link, stays at one).
         * {@code maxWorkers(Runtime.getRuntime().availableProcessors())} lets one stream
         * use every core when compression is its bottleneck; more workers than cores never help.
         * Memory grows to {@code maxWorkers + 1} slots of a block and a frame each. The rung
         * controller sees each block's compression time divided by the workers compressing side
         * by side, the speed it weighs against the link ({@link
         * org.adaptivecompress.control.Observation#compressNanos()}). The default
         * stays 1 because a library inside servers that run many streams should not start
         * threads per stream unasked.
         */
        public Builder maxWorkers(int maxWorkers) {
            if (maxWorkers < 1 || maxWorkers > MAX_WORKERS) {
                throw new IllegalArgumentException("maxWorkers must be in [1, " + MAX_WORKERS + "], was " + maxWorkers);
            }
            this.maxWorkers = maxWorkers;
            return this;
        }

        /**
         * Makes the sender thread and the compression workers; default daemon threads named
         * {@code adaptive-compress-sender-N} and {@code adaptive-compress-worker-N}.
         */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory is null");
            return this;
        }

        /** Tunes the worker count with measurement windows of other lengths, so tests see it move. */
        Builder tunerWindow(int minBlocks, long minNanos) {
            this.tunerFactory = max -> new WorkerCountTuner(max, minBlocks, minNanos);
            return this;
        }

        /** Holds {@code k} workers from the first block, without tuning, for tests that need a worker to compress. */
        Builder heldWorkers(int k) {
            this.tunerFactory = max -> WorkerCountTuner.holding(max, k);
            return this;
        }

        /** Runs {@code hook} on a worker before each block it compresses, so tests can make one fail. */
        Builder beforeEncode(Runnable hook) {
            this.beforeEncode = Objects.requireNonNull(hook, "hook is null");
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
            return "AdaptiveOutputStream.Builder{fifoCapacity=" + fifoCapacity + ", maxWorkers=" + maxWorkers
                    + ", maxFrame="
                    + FrameFormat.maxFrameLength(compression.build().maxBlockSize()) + "}";
        }
    }
}
