package org.adaptivecompress.internal.engine;

import java.util.ArrayDeque;
import java.util.Iterator;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.codec.Codecs;
import org.adaptivecompress.internal.codec.HistoryCompressor;
import org.adaptivecompress.internal.codec.NativeWindows;
import org.adaptivecompress.internal.engine.BlockJob;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.StreamTail;

/**
 * The histories of one stream: zstd and xz compressors that keep a stream open across blocks,
 * lent to one block at a time. Lent when a block is planned and returned when it is recorded,
 * both in stream order on the engine's thread, so a history's blocks are compressed in the order
 * a reader decodes them, whichever worker compresses each.
 *
 * <p>At most {@link FrameFormat#MAX_HISTORIES} exist; when a rung needs one and all are made,
 * the one returned longest ago is closed and its id reused (its next block starts a new stream,
 * which tells the reader to drop the old one). A block that finds every history lent out
 * decodes alone.
 *
 * <p>With a reset interval, the first block planned after every interval of content is a reset
 * point ({@link FrameFormat#BLOCK_FLAG_RESET}): the stream's last bytes are dropped, every
 * history starts its next block anew and unprimed, and the prime budget starts again, as a
 * reader's does there.
 */
final class Histories implements AutoCloseable {

    /** A history lent to a block: its id in block headers and its compressor. */
    static final class History {
        final int id;
        final int rung;
        final HistoryCompressor compressor;
        /** Stream bytes planned up to the end of the history's last block. */
        long lastEnd;
        /** Set at a reset point: the history's next block starts its stream anew. */
        boolean restart;

        History(int id, int rung, HistoryCompressor compressor) {
            this.id = id;
            this.rung = rung;
            this.compressor = compressor;
        }
    }

    private static final byte[] NO_BYTES = new byte[0];

    private final Ladder ladder;
    /** Log2 of the window the stream header declares: no history keeps a larger one. */
    private final int windowLog;
    /** Content bytes between reset points; 0 for none. */
    private final long resetInterval;
    /** Histories not lent out, returned longest ago first. */
    private final ArrayDeque<History> idle = new ArrayDeque<>(FrameFormat.MAX_HISTORIES);
    /** Every history made, by id less one, lent out or not. */
    private final History[] byId = new History[FrameFormat.MAX_HISTORIES];
    private int made;
    private boolean closed;
    /** The stream's last bytes, as planned so far. */
    private final StreamTail tail = new StreamTail(FrameFormat.PRIME_LENGTH);
    /** Stream bytes planned so far. */
    private long planned;
    /** Stream bytes planned before the last reset point (0 if none yet). */
    private long lastReset;
    /** Blocks that primed a history since the last reset point, within what a reader allows. */
    private long primes;

    /**
     * @param window the window the stream header declares, a power of two the format allows:
     *     each history keeps its level's native window up to it
     * @param resetInterval content bytes between reset points, 0 for none
     */
    Histories(Ladder ladder, int window, long resetInterval) {
        this.ladder = ladder;
        this.windowLog = FrameFormat.checkWindowSize(window);
        this.resetInterval = resetInterval;
    }

    /**
     * Lends {@code job} a history if its rung keeps one and {@code lend} allows, primed with the
     * stream's last bytes when it starts anew or has missed over half a window of the stream
     * since its last block (its window then holds little of what came just before), and takes
     * in the block's bytes.
     *
     * <p>While histories are withheld the stream's last bytes are not kept: that copy of every
     * byte is most of what histories cost on the fast links they are withheld on. Lent again, a
     * history is primed only once the tail holds as much of the stream as a reader's does (a
     * window, or the short prime), and goes on from its own window until then. Past the
     * stream's prime budget ({@link FrameFormat#primesAllowed}), or when {@code prime} is false,
     * a history starts unprimed, or one that has missed part of the stream goes on from its own
     * window.
     */
    void plan(BlockJob job, byte[] src, int offset, int length, boolean lend, boolean prime) {
        job.resetPoint = resetInterval > 0 && planned - lastReset >= resetInterval;
        if (job.resetPoint) {
            resetPoint();
        }
        boolean rungKeepsHistory = job.tryRung > 0 && ladder.rung(job.tryRung).codec().hasHistory();
        History h = rungKeepsHistory && lend ? lend(job.tryRung) : null;
        job.historyWithheld = rungKeepsHistory && h == null;
        if (h != null) {
            boolean stale = planned - h.lastEnd > FrameFormat.HISTORY_STALE_AFTER;
            boolean shortPrime = slowToPrime(ladder.rung(job.tryRung));
            int primeLength = shortPrime ? FrameFormat.SHORT_PRIME_LENGTH : Integer.MAX_VALUE;
            if (prime && (!h.compressor.continuesFrame() || stale) && !tail.isEmpty()
                    && tailHoldsWhatAReaderHolds(primeLength)
                    && primes < FrameFormat.primesAllowed(planned - lastReset)) {
                job.primeFlag = shortPrime ? FrameFormat.BLOCK_FLAG_PRIMED_SHORT : FrameFormat.BLOCK_FLAG_PRIMED;
                job.prime = tail.snapshot(primeLength, job.primeBuffer);
                job.primeBuffer = job.prime;
                primes++;
            }
            h.lastEnd = planned + length;
            job.history = h;
        }
        if (lend) {
            tail.append(src, offset, length);
        } else {
            tail.clear();
        }
        planned += length;
    }

    /**
     * Whether the tail's last {@code primeLength} bytes (at most a window, at most the stream so
     * far) are the ones a reader primes with: the tail has been kept for at least that many
     * bytes, since the stream began or histories were last withheld.
     */
    private boolean tailHoldsWhatAReaderHolds(int primeLength) {
        return tail.size() >= Math.min(Math.min(primeLength, FrameFormat.PRIME_LENGTH), planned - lastReset);
    }

    /** Starts over as a reader does at a reset point: no tail, no primes, every history anew. */
    private void resetPoint() {
        lastReset = planned;
        primes = 0;
        tail.clear();
        for (int i = 0; i < made; i++) {
            byId[i].restart = true;
        }
    }

    /**
     * True for the rungs that take long to load a dictionary, which start from
     * {@link FrameFormat#SHORT_PRIME_LENGTH} bytes only: loading 2 MiB took 56-256 ms at zstd
     * level 15 (binary-tree match finders, levels 13 and up) and 577 ms at xz preset 6 (BT4,
     * presets 4 and up), against 4-12 ms at zstd levels 3-12 and 17 ms at xz preset 1, and a
     * probe of such a rung pays it on the critical path (one-off measurements; the benchmarks
     * module's {@code HistoryBenchmark.primedBlock} measures the primes as they now are).
     */
    private static boolean slowToPrime(Rung rung) {
        return rung.codec() == CodecType.ZSTD ? rung.level() >= 13 : rung.level() >= 4;
    }

    /** A history for a block at {@code rung}, or null if the rung's codec has none or none is free. */
    private History lend(int rung) {
        Rung r = ladder.rung(rung);
        if (closed || !r.codec().hasHistory()) {
            return null;
        }
        for (Iterator<History> it = idle.descendingIterator(); it.hasNext(); ) {
            History h = it.next();
            if (h.rung == rung) {
                it.remove();
                if (h.restart) {
                    // Returned, so no worker holds it: its frame can be dropped here.
                    h.compressor.prime(NO_BYTES);
                    h.restart = false;
                }
                return h;
            }
        }
        if (made < FrameFormat.MAX_HISTORIES) {
            made++;
            return byId[made - 1] = new History(made, rung, newCompressor(r));
        }
        History oldest = idle.pollFirst();
        if (oldest == null) {
            return null;
        }
        oldest.compressor.close();
        return byId[oldest.id - 1] = new History(oldest.id, rung, newCompressor(r));
    }

    /** Takes back a history lent by {@link #lend}, once its block is compressed. */
    void giveBack(History h) {
        if (!closed) {
            idle.addLast(h);
        }
    }

    /** Native memory the histories hold, in bytes (see {@link HistoryCompressor#nativeBytes()}). */
    long nativeBytes() {
        if (closed) {
            return 0;
        }
        long sum = 0;
        for (int i = 0; i < made; i++) {
            sum += byId[i].compressor.nativeBytes();
        }
        return sum;
    }

    /** Heap the histories hold, in bytes: their compressors' and the stream's last bytes. */
    long heapBytes() {
        if (closed) {
            return 0;
        }
        long sum = FrameFormat.PRIME_LENGTH;
        for (int i = 0; i < made; i++) {
            sum += byId[i].compressor.heapBytes();
        }
        return sum;
    }

    private HistoryCompressor newCompressor(Rung rung) {
        return Codecs.newHistoryCompressor(rung, NativeWindows.historyWindowLog(rung, windowLog));
    }

    /**
     * Frees every history, lent out or not: call it once no block is being compressed.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < made; i++) {
            byId[i].compressor.close();
        }
        idle.clear();
    }
}
