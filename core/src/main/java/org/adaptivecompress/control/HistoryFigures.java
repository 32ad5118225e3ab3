package org.adaptivecompress.control;

import java.util.Arrays;
import org.adaptivecompress.format.FrameFormat;

/**
 * What {@link ThroughputController} knows of the rungs that keep a history (see
 * {@link org.adaptivecompress.engine.CompressionOptions#history()}): their blocks come in two
 * kinds, and a rung's cost is their mix.
 *
 * <p>A <em>warm</em> block finds most of itself in the history: repeated prose at zstd:1 takes
 * 0.05 ms and 12 bytes for 128 KiB. A <em>cold</em> one is new data: 2-4 ms and 50 KB at
 * zstd:1, 70-110 ms at zstd:15. A few cold blocks among a hundred warm ones cost more than all
 * of them, so a rung's figures are kept per kind, and the share of cold blocks, a property of
 * the data rather than of the rung, is measured on whatever history rung runs. A rung's speed
 * and ratio are the mix of its two kinds in that share: a probe of four warm blocks then says
 * what the rung does on warm data, not that it is as cheap as its neighbour on everything
 * (which walked the stream up to zstd:15, whose every cold block took 70 ms).
 *
 * <p>A kind a rung has not been seen at is extrapolated from the nearest rung seen at it
 * ({@link ThroughputController#STEP_SLOWER} times slower per rung up), as the controller
 * extrapolates rungs it has never measured. Also kept: the time a block that started a rung's history took beyond its
 * kind's figure (loading the stream's last bytes), and where each rung's last block ended, to
 * tell when the engine will load its history again ({@link FrameFormat#HISTORY_STALE_AFTER}).
 *
 * <p>Not thread-safe; owned by one controller.
 */
final class HistoryFigures {

    /** A block that shrank this many times found most of itself in the history. */
    static final double WARM_RATIO = 32;
    /** The weight of one block in its kind's figures: each kind is one mode, so a short memory. */
    private static final double KIND_ALPHA = 0.25;
    /** The weight of one block in the cold share: a memory longer than the spells between cold blocks. */
    private static final double SHARE_ALPHA = 1.0 / 64;

    private boolean[] keepsHistory = new boolean[0];
    /** Per rung and kind: nanoseconds per input byte, and bytes sent per input byte; NaN until seen. */
    private double[] warmNanos = new double[0];
    private double[] warmSent = new double[0];
    private double[] coldNanos = new double[0];
    private double[] coldSent = new double[0];
    private double coldShare = Double.NaN;
    private long shareSamples;
    private double[] primeNanos = new double[0];
    private long inputSoFar;
    private long[] lastEnd = new long[0];

    void size(int rungs) {
        if (keepsHistory.length != rungs) {
            keepsHistory = new boolean[rungs];
            warmNanos = nans(rungs);
            warmSent = nans(rungs);
            coldNanos = nans(rungs);
            coldSent = nans(rungs);
            primeNanos = nans(rungs);
            lastEnd = new long[rungs];
            Arrays.fill(lastEnd, Long.MIN_VALUE / 2);
        }
    }

    private static double[] nans(int n) {
        double[] a = new double[n];
        Arrays.fill(a, Double.NaN);
        return a;
    }

    /**
     * Counts a block of any rung into the stream's position, and as the rung's last block if
     * it was compressed {@code withHistory} (blocks compressed alone leave the rung's history as
     * it was). Call once per block, before {@link #learn}.
     */
    void advance(int rung, int uncompressedLength, boolean withHistory) {
        inputSoFar += uncompressedLength;
        if (withHistory) {
            lastEnd[rung] = inputSoFar;
        }
    }

    /** Whether {@code rung} was seen to keep a history: its first block started one. */
    boolean keepsHistory(int rung) {
        return keepsHistory[rung];
    }

    /**
     * Whether {@code rung}'s figures are kept here: it was seen to keep a history (its first
     * block started one), or it was never seen and lies above a rung that does (on a ladder,
     * the codecs with histories are the slower ones).
     */
    boolean covers(int rung, boolean seen) {
        if (keepsHistory[rung] || seen) {
            return keepsHistory[rung];
        }
        for (int r = 0; r < rung; r++) {
            if (keepsHistory[r]) {
                return true;
            }
        }
        return false;
    }

    /** Whether a block found most of itself in its history: it shrank {@link #WARM_RATIO} times or more. */
    static boolean warm(Observation o) {
        return (o.storedLength() + (double) FrameFormat.BLOCK_HEADER_LENGTH) * WARM_RATIO <= o.uncompressedLength();
    }

    /**
     * Learns from a block at {@code rung} if the rung keeps a history; false, having learnt
     * nothing, if it does not (its figures are the controller's usual ones).
     */
    boolean learn(int rung, Observation o) {
        keepsHistory[rung] |= o.historyStarted();
        if (!keepsHistory[rung]) {
            return false;
        }
        double in = o.uncompressedLength();
        double nanos = o.compressNanos() / in;
        double sent = (o.storedLength() + FrameFormat.BLOCK_HEADER_LENGTH) / in;
        boolean warm = warm(o);
        if (inputSoFar > 1L << FrameFormat.HISTORY_WINDOW_LOG) {
            // Not in the stream's first window, which no history can have seen before. A mean
            // of the first samples, then a moving average: a share learnt only from the few
            // blocks of probes must not take hundreds of blocks to leave its first value.
            shareSamples++;
            coldShare = average(coldShare, warm ? 0 : 1, Math.max(SHARE_ALPHA, 1.0 / shareSamples));
        }
        double[] kindNanos = warm ? warmNanos : coldNanos;
        double[] kindSent = warm ? warmSent : coldSent;
        kindSent[rung] = average(kindSent[rung], sent, KIND_ALPHA);
        if (o.historyStarted() && inputSoFar > in) {
            // Its time includes loading the stream's last bytes: what the next move here costs
            // once, not what a block of its kind costs (that figure, if this rung has none yet,
            // is extrapolated from a neighbour's; with none anywhere, the whole block counts as
            // the load, and the kind waits for its next block: a warm block of 0.05 ms taken
            // with its 13 ms load as the first warm figure made zstd:1 on repeated prose look
            // like 10 MB/s, and the stream kept away from it for the whole transfer). The
            // stream's first block has nothing to load.
            double steady = nanosPerByte(rung, warm);
            primeNanos[rung] = Math.max(0, o.compressNanos() - (Double.isNaN(steady) ? 0 : steady * in));
            return true;
        }
        kindNanos[rung] = average(kindNanos[rung], nanos, KIND_ALPHA);
        return true;
    }

    private static double average(double estimate, double sample, double alpha) {
        return Double.isNaN(estimate) ? sample : estimate + alpha * (sample - estimate);
    }

    /** Input bytes per second at {@code rung} on the current mix of warm and cold blocks; NaN if unknown. */
    double speed(int rung) {
        double nanos = mix(nanosPerByte(rung, true), nanosPerByte(rung, false));
        return nanos > 0 ? 1e9 / nanos : Double.NaN;
    }

    /** Input bytes per byte sent at {@code rung} on the current mix; NaN if unknown. */
    double ratio(int rung) {
        double sent = mix(sentPerByte(rung, true), sentPerByte(rung, false));
        return sent > 0 ? 1 / sent : Double.NaN;
    }

    /**
     * What starting {@code rung}'s history would cost now: what a block at the rung last took
     * beyond its figure to start it, or, never seen, what compressing the stream's last bytes
     * (at most a window) would take at the rung's speed on new data. That is pessimistic on
     * purpose: loads measured five to seven times less (zstd:1 7 ms for 2 MiB against about
     * 48 ms to compress them cold; zstd:15 60 ms for 512 KiB against 280-440), but priced at a
     * fifth the start-up climb reached xz on binaries at 10 Mbit/s and took twice the time
     * (docs/PERFORMANCE.md). NaN for rungs without a history.
     */
    double primeNanos(int rung) {
        if (!covers(rung, false)) {
            return Double.NaN;
        }
        if (!Double.isNaN(primeNanos[rung])) {
            return primeNanos[rung];
        }
        double cold = nanosPerByte(rung, false);
        double perByte = Double.isNaN(cold) ? nanosPerByte(rung, true) : cold;
        return Math.min(inputSoFar, 1L << FrameFormat.HISTORY_WINDOW_LOG) * perByte;
    }

    /** Whether the engine would load {@code rung}'s history again before its next block. */
    boolean stale(int rung) {
        return inputSoFar - lastEnd[rung] > FrameFormat.HISTORY_STALE_AFTER;
    }

    private double mix(double warm, double cold) {
        if (Double.isNaN(warm) || Double.isNaN(cold)) {
            // Only one kind seen anywhere: it is the whole mix, as far as anyone knows.
            return Double.isNaN(warm) ? cold : warm;
        }
        // Before the share is known (the stream's first window), the cold figure: every block
        // of a history's first window is new to it.
        double share = Double.isNaN(coldShare) ? 1 : coldShare;
        return (1 - share) * warm + share * cold;
    }

    private double nanosPerByte(int rung, boolean warm) {
        double[] figures = warm ? warmNanos : coldNanos;
        int known = nearestSeen(figures, rung);
        return known < 0 ? Double.NaN : figures[known] * Math.pow(ThroughputController.STEP_SLOWER, rung - known);
    }

    private double sentPerByte(int rung, boolean warm) {
        double[] figures = warm ? warmSent : coldSent;
        int known = nearestSeen(figures, rung);
        return known < 0 ? Double.NaN : figures[known] / Math.pow(ThroughputController.STEP_SMALLER, rung - known);
    }

    /** The history rung nearest to {@code rung} (itself first, then the one below) with a figure; -1 if none. */
    private int nearestSeen(double[] figures, int rung) {
        for (int d = 0; d < figures.length; d++) {
            if (rung - d >= 0 && keepsHistory[rung - d] && !Double.isNaN(figures[rung - d])) {
                return rung - d;
            }
            if (d > 0 && rung + d < figures.length && keepsHistory[rung + d] && !Double.isNaN(figures[rung + d])) {
                return rung + d;
            }
        }
        return -1;
    }
}
