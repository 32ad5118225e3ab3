package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.BlockJob;
import org.adaptivecompress.internal.engine.FrameEncoder;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * The parallel half of an {@link AdaptiveOutputStream}: blocks are compressed by worker threads
 * and their frames queued into the FIFO strictly in block order.
 *
 * <p>The writer fills a slot's input buffer; {@link #dispatch} plans the block at the
 * controller's rung and hands the slot to the workers, each of which owns a {@link FrameEncoder}
 * (native contexts are never shared between threads). Slots are queued in dispatch order: the
 * writer queues the oldest one's frame once it is done, telling the engine and the tuner in that
 * order, and never has more than {@code k} blocks in flight, {@code k} being what the
 * {@link WorkerCountTuner} picked. Slots and threads are made on demand, at most
 * {@code max + 1} slots (one being filled) and {@code max} threads, and reused until close; a
 * slot holds a block of the block size at first and grows as the writer's blocks do.
 * With {@code k} at 1 the writer compresses each block itself instead ({@link #writerCompresses}),
 * once the blocks in flight are queued, and tells the tuner of it ({@link #writerQueued}).
 *
 * <p>The writer queues each frame the way it queues its own ({@link FrameQueue}): the queued
 * frames, and the frame itself, that the controller now wants at a higher rung are compressed
 * again first ({@link QueuedFrames}), on its thread, with the engine's compressors, which no
 * worker uses: without it the frames queued for a fast link cross one that dropped at their
 * old ratio.
 *
 * <p>A worker's failure (a {@link RuntimeException} or {@link Error} from a codec) is recorded
 * and wakes the writer, whose every call then throws it as an {@link IOException}. Every method
 * but the workers' loop runs on the writer's thread.
 */
final class WorkerPool {

    /** How the writer queues a compressed block's frame: the stream's own way (AdaptiveOutputStream.queueCompressed). */
    interface FrameQueue {
        /**
         * Queues the frame {@code frame[0, n)} of the block {@code src[offset, offset + length)}
         * compressed while the FIFO held {@code fifoAtStart} bytes; {@code n} is a header's
         * length when the payload is the block's bytes.
         */
        void queue(long fifoAtStart, byte[] frame, int n, byte[] src, int offset, int length) throws IOException;
    }

    /**
     * Where a block's bytes start in a slot's input buffer: where they start in the stream's
     * own block, after room for a raw frame's header, so that the writer may send a block it
     * compressed itself (see {@link #writerCompresses}) as a stream without workers does.
     */
    private static final int INPUT_OFFSET = AdaptiveOutputStream.BLOCK_START;

    private static final class Slot {
        /** Grown, before the slot is dispatched, as the writer's blocks grow (see {@link #growFillBuffer}). */
        byte[] input;
        byte[] frame;
        final BlockJob job = new BlockJob();
        int length;
        long fifoAtDispatch;
        /** Set by the worker once {@link #job} and {@link #frame} are complete. */
        volatile boolean done;

        Slot(int blockLength) {
            input = new byte[INPUT_OFFSET + blockLength];
            frame = new byte[AdaptiveCompressor.maxFrameLength(blockLength)];
        }
    }

    private final AdaptiveCompressor compressor;
    private final ByteFifo fifo;
    private final FrameQueue frames;
    private final WorkerCountTuner tuner;
    private final ThreadFactory threadFactory;
    private final Runnable beforeEncode;
    /** What a new slot holds: the stream's block size; slots grow from it to the longest block as blocks do. */
    private final int blockSize;
    private final int maxBlockLength;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition workAvailable = lock.newCondition();
    private final Condition blockDone = lock.newCondition();
    /** Dispatched slots no worker has taken yet; guarded by {@link #lock}. */
    private final ArrayDeque<Slot> pending;
    private boolean stopping;
    private volatile Throwable failure;

    /** Dispatched slots whose frames are not queued yet, oldest first (the writer's alone). */
    private final ArrayDeque<Slot> inFlight;
    private final ArrayDeque<Slot> free;
    private final List<Thread> threads = new ArrayList<>();
    private Slot filling;
    private int k;

    /**
     * @param frames how the writer queues each frame, in block order
     * @param beforeEncode run on the worker before each block: a no-op except in tests, which
     *     make a worker fail with it
     */
    WorkerPool(AdaptiveCompressor compressor, ByteFifo fifo, FrameQueue frames, WorkerCountTuner tuner,
            int maxWorkers, ThreadFactory threadFactory, Runnable beforeEncode) {
        this.compressor = compressor;
        this.fifo = fifo;
        this.frames = frames;
        this.tuner = tuner;
        this.threadFactory = threadFactory;
        this.beforeEncode = beforeEncode;
        this.blockSize = compressor.blockSize();
        this.maxBlockLength = compressor.maxBlockLength();
        // Sized for every slot there can be, so adding to them never grows an array.
        this.pending = new ArrayDeque<>(maxWorkers + 1);
        this.inFlight = new ArrayDeque<>(maxWorkers + 1);
        this.free = new ArrayDeque<>(maxWorkers + 1);
        this.k = tuner.workers();
        this.filling = new Slot(blockSize);
    }

    /** The buffer the writer fills with the next block, from {@link AdaptiveOutputStream#BLOCK_START}. */
    byte[] fillBuffer() {
        return filling.input;
    }

    /**
     * Grows the buffer the writer fills, keeping its bytes, to hold a block of {@code length}
     * bytes: at least double, at most the longest block. Returns it.
     */
    byte[] growFillBuffer(int length) {
        int grown = AdaptiveOutputStream.grownBlockLength(filling.input.length - INPUT_OFFSET, length, maxBlockLength);
        filling.input = Arrays.copyOf(filling.input, INPUT_OFFSET + grown);
        filling.frame = new byte[AdaptiveCompressor.maxFrameLength(grown)];
        return filling.input;
    }

    /**
     * Whether the next block is the writer's to compress, in {@link #fillBuffer()}: one worker
     * tuned, where a worker would only add a hand-off, and a stream of the writer's own
     * blocks does what a stream without workers does (raw frames written to the sink by the
     * writer, no worker thread started). Queues every block still in flight first, so frames
     * stay in block order. Tell {@link #writerQueued} once the block is queued.
     */
    boolean writerCompresses() throws IOException {
        if (k > 1) {
            return false;
        }
        drain();
        return true;
    }

    /** Whether the writer is to compress the next block, were it filled now (see {@link #writerCompresses}). */
    boolean writerCompressesNext() {
        return k == 1;
    }

    /** Takes in a block of {@code length} bytes the writer compressed and queued (or sent) itself. */
    void writerQueued(int length) {
        tellTuner(length);
    }

    /** Tells the tuner of the block of {@code length} bytes just queued, the last the engine recorded. */
    private void tellTuner(int length) {
        k = tuner.blockQueued(length, compressor.lastCompressNanos(), System.nanoTime());
    }

    /**
     * Hands the block of {@code length} bytes in {@link #fillBuffer()} to the workers, queuing
     * finished frames first and waiting while {@code k} blocks are in flight; returns the buffer
     * to fill next.
     */
    byte[] dispatch(int length) throws IOException {
        while (!inFlight.isEmpty() && inFlight.peekFirst().done) {
            queueOldest();
        }
        while (inFlight.size() >= k) {
            queueOldest();
        }
        startWorkers(k);
        Slot slot = filling;
        slot.length = length;
        slot.done = false;
        slot.fifoAtDispatch = fifo.queuedBytes();
        compressor.planBlock(slot.job, k, length, slot.input, INPUT_OFFSET);
        lock.lock();
        try {
            pending.addLast(slot);
            workAvailable.signal();
        } finally {
            lock.unlock();
        }
        inFlight.addLast(slot);
        // At most k <= max slots are in flight now, so there are at most max + 1 slots in all.
        filling = free.isEmpty() ? new Slot(blockSize) : free.pollFirst();
        return filling.input;
    }

    /** Waits for every dispatched block and queues its frame, in order. */
    void drain() throws IOException {
        while (!inFlight.isEmpty()) {
            queueOldest();
        }
    }

    /** Throws a worker's failure as an {@link IOException}, if one failed. */
    void checkFailure() throws IOException {
        Throwable t = failure;
        if (t != null) {
            throw workerFailed(t);
        }
    }

    /** A worker's failure, or {@code null}. */
    Throwable failure() {
        return failure;
    }

    /**
     * Stops the workers (abandoning blocks not started), waits for each to finish the block it
     * is compressing and free its compressors. Waits on through interrupts, which a block's
     * compression cannot heed; the interrupt is kept for the caller.
     */
    void close() {
        lock.lock();
        try {
            stopping = true;
            pending.clear();
            workAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static IOException workerFailed(Throwable t) {
        return new IOException("a compression worker failed: " + t, t);
    }

    /** Waits for the oldest block, tells the engine and the tuner about it, and queues its frame. */
    private void queueOldest() throws IOException {
        Slot slot = inFlight.peekFirst();
        if (!slot.done) {
            lock.lock();
            try {
                while (!slot.done && failure == null) {
                    blockDone.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a compression worker");
            } finally {
                lock.unlock();
            }
        }
        checkFailure();
        inFlight.pollFirst();
        compressor.recordBlock(slot.job);
        int n = slot.job.payloadInSource() ? FrameFormat.BLOCK_HEADER_LENGTH : slot.job.frameLength();
        frames.queue(slot.fifoAtDispatch, slot.frame, n, slot.input, INPUT_OFFSET, slot.length);
        free.addLast(slot);
        tellTuner(slot.length);
    }

    private void startWorkers(int count) throws IOException {
        while (threads.size() < count) {
            Thread t;
            try {
                t = Objects.requireNonNull(threadFactory.newThread(this::work), "threadFactory returned null");
                t.start();
            } catch (RuntimeException | Error e) {
                fail(e);
                throw workerFailed(e);
            }
            threads.add(t);
        }
    }

    /** A worker's loop: takes slots until the pool stops, with its own encoder. */
    private void work() {
        try (FrameEncoder encoder = compressor.newFrameEncoder()) {
            Slot slot;
            while ((slot = take()) != null) {
                beforeEncode.run();
                encoder.encodeLeavingRawPayload(slot.job, slot.input, INPUT_OFFSET, slot.length, slot.frame, 0);
                slot.done = true;
                signalDone();
            }
        } catch (Throwable t) {
            // The writer is waiting on this block, or will: wake it with the failure, never hang it.
            fail(t);
        }
    }

    private void fail(Throwable t) {
        lock.lock();
        try {
            if (failure == null) {
                failure = t;
            }
            blockDone.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private Slot take() {
        lock.lock();
        try {
            while (!stopping && pending.isEmpty()) {
                workAvailable.awaitUninterruptibly();
            }
            return stopping ? null : pending.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    private void signalDone() {
        lock.lock();
        try {
            blockDone.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
