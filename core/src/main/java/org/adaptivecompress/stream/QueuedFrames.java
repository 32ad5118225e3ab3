package org.adaptivecompress.stream;

import java.io.IOException;
import java.util.Arrays;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;

/**
 * The block frames waiting in a stream's FIFO, so that those the link has become too slow for
 * can be compressed again before the sender reaches them.
 *
 * <p>Whatever the FIFO holds when the link slows crosses it at the slower rate: LZ4 frames
 * queued for 1000 Mbit/s cross a link that dropped to 10 Mbit/s at half the ratio zstd:9 would
 * give them, while the writer, its FIFO full, waits. So after each decision the writer asks the
 * controller, through {@link AdaptiveCompressor#recompressRung}, whether queued frames below
 * the new rung are worth compressing again; if so it takes back every frame from the first
 * such one on (the sender keeps writing those before it), compresses those frames again,
 * oldest first, and puts them all back in order, each as soon as it is ready.
 *
 * <p>Frames enter the FIFO in stream order on the writer's thread, its own or, with parallel
 * compression, the workers' as it queues them (see {@link WorkerPool}). Only without histories
 * (every block decodes alone, so a frame can change without the ones after it). The writer's
 * thread only.
 */
final class QueuedFrames {

    private static final int INITIAL_CAPACITY = 64;
    /** Marks a frame that is never compressed again (see {@link AdaptiveCompressor#recompressibleRungOfLastBlock()}). */
    private static final int NEVER = -1;

    private final int fifoCapacity;
    private final int maxFrameLength;
    /** Per queued frame, oldest first from {@link #head}, in a ring: its stream position, length and rung. */
    private long[] starts = new long[INITIAL_CAPACITY];
    private int[] lengths = new int[INITIAL_CAPACITY];
    private int[] rungs = new int[INITIAL_CAPACITY];
    private int head;
    private int size;
    /** Queued frames that may be compressed again, per rung. */
    private final int[] recompressibleAt;
    /** The bytes taken back from the FIFO, and a frame compressed again: each made on its first use, as most streams never need them. */
    private byte[] takenBack;
    private byte[] frame;
    private long nanos;

    QueuedFrames(int rungs, int fifoCapacity, int maxFrameLength) {
        this.recompressibleAt = new int[rungs];
        this.fifoCapacity = fifoCapacity;
        this.maxFrameLength = maxFrameLength;
    }

    /**
     * Records a block frame just put at stream position {@code start}; {@code rung} is where it
     * is stored, or -1 if it is never to be compressed again. Every block frame the FIFO queues
     * must be recorded, in order: the frames taken back are told apart by these records.
     */
    void add(long start, int length, int rung) {
        if (size == starts.length) {
            grow();
        }
        int i = index(size++);
        starts[i] = start;
        lengths[i] = length;
        rungs[i] = rung;
        if (rung != NEVER) {
            recompressibleAt[rung]++;
        }
    }

    /**
     * Compresses the block just compressed, {@code src[offset, offset + length)}, again at the
     * rung the controller now wants for its frame, before the frame joins the FIFO (or is
     * written by the writer itself): the decision after a block is the first to see the link
     * that block met, and on a link that just dropped, a raw block written directly takes a
     * hundred milliseconds at 10 Mbit/s. Returns the new frame's length, the frame in
     * {@link #frame()}, or -1 to keep the frame as it is.
     */
    int recompressNewest(AdaptiveCompressor compressor, byte[] src, int offset, int length) {
        int rung = compressor.recompressibleRungOfLastBlock();
        if (rung == NEVER) {
            return -1;
        }
        int to = compressor.recompressRung(rung);
        if (to <= rung) {
            return -1;
        }
        long began = System.nanoTime();
        if (frame == null) {
            frame = new byte[maxFrameLength];
        }
        int n = compressor.recompressLastBlock(src, offset, length, to, frame, 0);
        nanos += System.nanoTime() - began;
        return n;
    }

    /** Where {@link #recompressNewest} leaves the frame it returns the length of. */
    byte[] frame() {
        return frame;
    }

    /**
     * Compresses again the queued frames the controller now wants at a higher rung, if any,
     * and the sender has not begun writing them; the frames after the first of them are taken
     * back and put back too, so the stream keeps its order.
     */
    void recompress(ByteFifo fifo, AdaptiveCompressor compressor) throws IOException {
        forgetSent(fifo.sendingEnd());
        int first = firstToRecompress(compressor);
        if (first < 0) {
            return;
        }
        long began = System.nanoTime();
        long from = starts[index(first)];
        checkTiled(first, fifo.putPosition());
        if (takenBack == null) {
            takenBack = new byte[fifoCapacity];
        }
        if (frame == null) {
            frame = new byte[maxFrameLength];
        }
        if (fifo.takeBack(from, takenBack) < 0) {
            return; // the sender got there first: its write in progress cannot change
        }
        for (int k = first; k < size; k++) {
            int i = index(k);
            int offset = (int) (starts[i] - from);
            int rung = rungs[i];
            int to = rung == NEVER ? rung : compressor.recompressRung(rung);
            int n = to > rung ? compressor.recompressFrame(takenBack, offset, lengths[i], rung, to, frame, 0) : -1;
            starts[i] = fifo.putPosition();
            if (n > 0) {
                fifo.put(frame, 0, n);
                lengths[i] = n;
                rungs[i] = to;
                recompressibleAt[rung]--;
                recompressibleAt[to]++;
            } else {
                fifo.put(takenBack, offset, lengths[i]);
            }
        }
        nanos += System.nanoTime() - began;
    }

    /**
     * Nanoseconds spent compressing frames again since the last call: time the writer would
     * otherwise have waited for room in the FIFO, which the controller must not take for the
     * writer's work on its own blocks.
     */
    long takeNanos() {
        long took = nanos;
        nanos = 0;
        return took;
    }

    /** Forgets the frames that begin before {@code sendingEnd}: the sender has them. */
    private void forgetSent(long sendingEnd) {
        while (size > 0 && starts[head] < sendingEnd) {
            if (rungs[head] != NEVER) {
                recompressibleAt[rungs[head]]--;
            }
            head = (head + 1) % starts.length;
            size--;
        }
    }

    /**
     * The position among the records of the first frame to compress again, or -1. Asked first
     * for the lowest rung queued, which has the most to gain: if even that is to stay, all do.
     */
    private int firstToRecompress(AdaptiveCompressor compressor) {
        int lowest = 0;
        while (lowest < recompressibleAt.length && recompressibleAt[lowest] == 0) {
            lowest++;
        }
        if (lowest == recompressibleAt.length || compressor.recompressRung(lowest) == lowest) {
            return -1;
        }
        for (int k = 0; k < size; k++) {
            int rung = rungs[index(k)];
            if (rung != NEVER && compressor.recompressRung(rung) > rung) {
                return k;
            }
        }
        return -1;
    }

    /** The records from {@code first} on must cover the FIFO's bytes up to {@code end} exactly. */
    private void checkTiled(int first, long end) {
        long at = starts[index(first)];
        for (int k = first; k < size; k++) {
            int i = index(k);
            if (starts[i] != at) {
                throw new IllegalStateException("queued frame " + k + " starts at " + starts[i] + ", expected " + at);
            }
            at += lengths[i];
        }
        if (at != end) {
            throw new IllegalStateException("queued frames end at " + at + ", the FIFO at " + end);
        }
    }

    private int index(int k) {
        return (head + k) % starts.length;
    }

    private void grow() {
        int n = starts.length;
        long[] s = new long[2 * n];
        int[] l = new int[2 * n];
        int[] r = new int[2 * n];
        for (int k = 0; k < size; k++) {
            int i = index(k);
            s[k] = starts[i];
            l[k] = lengths[i];
            r[k] = rungs[i];
        }
        starts = s;
        lengths = l;
        rungs = r;
        head = 0;
    }

    @Override
    public String toString() {
        return "QueuedFrames{" + size + " frames, recompressible per rung " + Arrays.toString(recompressibleAt) + "}";
    }
}
