package org.adaptivecompress.stream;

import java.util.Arrays;

/**
 * Picks how many workers compress side by side, {@code k} in {@code [1, max]}, from the goodput
 * it measures: input bytes whose frames were queued per second. GridFTP-APT's tuning of parallel
 * streams (Inoue, Ohsaki, Imase) applied to compression workers: a golden-section search for the
 * {@code k} of highest goodput, then a hold that restarts the search when the goodput moves.
 *
 * <ul>
 *   <li><b>Windows</b>: each measurement spans at least {@value #MIN_WINDOW_BLOCKS} blocks and
 *       {@value #MIN_WINDOW_MILLIS} ms, so the rung controller has reacted to the new {@code k};
 *       after a change it starts only once the blocks dispatched before the change are queued.
 *   <li><b>Search</b>: one worker is measured first, then a golden-section search over the
 *       integers narrows {@code [1, max]} to the {@code k} of highest goodput, one or two new
 *       windows per step (about {@code 1.5 log2(max)} windows; for {@code max = 2} it compares
 *       1 and 2). Goodput is assumed unimodal in {@code k}: it rises while workers add
 *       compression, then flattens or falls when the link, the writer or the cores limit it.
 *   <li><b>Choice</b>: the fewest workers within {@value #TIE_PERCENT} % of that peak, fewer
 *       threads for the same result. Goodput rises up to the peak, so a bisection of
 *       {@code [1, peak]} finds them in at most {@code log2(peak)} more windows; on a plateau
 *       (a link-bound stream) that is its left edge, where noise would leave the golden-section
 *       search anywhere on it.
 *   <li><b>Hold</b>: the search restarts when a window's goodput moves more than
 *       {@value #DRIFT_PERCENT} % from the figure the search converged on (the link, the data or
 *       the CPU changed), or after {@value #MAX_HOLD_WINDOWS} windows on one {@code k}, so a slow
 *       change is found too.
 *   <li><b>Only where workers can gain</b>: workers take over the codec's share of the writer's
 *       time, nothing else (Amdahl's law). A window of one worker whose codec share could not
 *       make {@code max} workers {@value #MIN_GAIN_PERCENT} % faster ends the search at one, and
 *       holds it without searching until a window's share could. A stream held raw or on a link
 *       that keeps the writer waiting has next to nothing to hand over, and each window spent
 *       measuring more workers there cost it: on unthrottled loopback the search and its restarts
 *       on noise had two workers for about a third of the blocks, at about half the goodput.
 * </ul>
 *
 * <p>Deterministic: time comes from the caller, so tests drive it with a simulated clock. One
 * writer thread calls it; not thread-safe.
 */
final class WorkerCountTuner {

    static final int MIN_WINDOW_BLOCKS = 8;
    static final int MIN_WINDOW_MILLIS = 100;
    static final int TIE_PERCENT = 5;
    static final int DRIFT_PERCENT = 25;
    static final int MAX_HOLD_WINDOWS = 64;
    static final int MIN_GAIN_PERCENT = 25;

    private static final double GOLDEN = (Math.sqrt(5) - 1) / 2;
    private static final double TIE = 1 - TIE_PERCENT / 100.0;
    private static final double DRIFT = DRIFT_PERCENT / 100.0;
    private static final double MIN_GAIN = 1 + MIN_GAIN_PERCENT / 100.0;

    private final int max;
    private final int minWindowBlocks;
    private final long minWindowNanos;
    /** This search's goodput per {@code k} (index {@code k}), NaN where not measured. */
    private final double[] goodput;

    private int k = 1;
    private boolean searching = true;
    /** Holds {@link #k} for good (see {@link #holding}). */
    private boolean held;
    /** The search's bracket: around the peak, then, once {@link #peakFound}, the bisection's. */
    private int lo = 1;
    private int hi;
    private boolean peakFound;
    /** The goodput the chosen k must reach: the peak's, less the tie. */
    private double target;
    private double heldGoodput;
    private int heldWindows;
    /** Holding one worker because a window's codec share could not pay for more, not because a search measured them. */
    private boolean heldForShare;

    /** Blocks still to be queued before the next window starts: those dispatched under the previous k. */
    private int warmup = 1;
    private long windowStart;
    private long windowBytes;
    private long windowCodecNanos;
    private int windowBlocks;
    private long windows;

    /** A tuner with the default windows. */
    WorkerCountTuner(int max) {
        this(max, MIN_WINDOW_BLOCKS, MIN_WINDOW_MILLIS * 1_000_000L);
    }

    /** A tuner with other windows, for tests that need {@code k} to move within a short stream. */
    WorkerCountTuner(int max, int minWindowBlocks, long minWindowNanos) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        if (minWindowBlocks < 1 || minWindowNanos < 0) {
            throw new IllegalArgumentException("a window needs at least one block and no negative time, was "
                    + minWindowBlocks + " blocks, " + minWindowNanos + " ns");
        }
        this.max = max;
        this.minWindowBlocks = minWindowBlocks;
        this.minWindowNanos = minWindowNanos;
        this.goodput = new double[max + 1];
        this.hi = max;
        Arrays.fill(goodput, Double.NaN);
        if (max == 1) {
            searching = false;
        }
    }

    /** A tuner that holds {@code k} workers and never searches, for tests that need workers from the first block. */
    static WorkerCountTuner holding(int max, int k) {
        if (k < 1 || k > max) {
            throw new IllegalArgumentException("k must be in [1, " + max + "], was " + k);
        }
        WorkerCountTuner tuner = new WorkerCountTuner(max);
        tuner.k = k;
        tuner.held = true;
        tuner.searching = false;
        return tuner;
    }

    /** The number of workers to compress side by side from now on. */
    int workers() {
        return k;
    }

    /** Measurement windows closed so far. */
    long windows() {
        return windows;
    }

    /** True while searching; false while holding the {@code k} a search converged on. */
    boolean searching() {
        return searching;
    }

    /**
     * Takes in a block whose frame was queued at {@code nanoTime}.
     *
     * @param inputBytes the block's uncompressed bytes
     * @param codecNanos the time the block spent in its codec, divided by the workers it was
     *     planned for ({@link org.adaptivecompress.internal.engine.AdaptiveCompressor#lastCompressNanos()})
     * @return the number of workers to compress side by side from now on
     */
    int blockQueued(int inputBytes, long codecNanos, long nanoTime) {
        if (max == 1 || held) {
            return k;
        }
        if (warmup > 0) {
            warmup--;
            windowStart = nanoTime;
            return k;
        }
        windowBytes += inputBytes;
        windowCodecNanos += codecNanos;
        windowBlocks++;
        long elapsed = nanoTime - windowStart;
        if (windowBlocks < minWindowBlocks || elapsed < Math.max(1, minWindowNanos)) {
            return k;
        }
        double measured = windowBytes * 1e9 / elapsed;
        boolean workersCannotGain = k == 1 && bestGain((double) windowCodecNanos / elapsed) < MIN_GAIN;
        windowStart = nanoTime;
        windowBytes = 0;
        windowCodecNanos = 0;
        windowBlocks = 0;
        windows++;
        if (workersCannotGain) {
            if (!heldForShare) { // a search under way, or a hold that could restart one
                hold(1, measured);
                heldForShare = true;
            }
        } else if (searching) {
            goodput[k] = measured;
            next();
        } else if (heldForShare || ++heldWindows >= MAX_HOLD_WINDOWS
                || Math.abs(measured - heldGoodput) > DRIFT * heldGoodput) {
            // The search starts over from what the held k measures now.
            Arrays.fill(goodput, Double.NaN);
            goodput[k] = measured;
            lo = 1;
            hi = max;
            peakFound = false;
            searching = true;
            heldForShare = false;
            next();
        }
        return k;
    }

    /**
     * How many times faster {@link #max} workers could make a writer that spends
     * {@code codecShare} of its time in the codec: Amdahl's law, the rest of its time (copies,
     * waits for the link, writes) staying as it is.
     */
    private double bestGain(double codecShare) {
        double share = Math.min(1, codecShare);
        return 1 / ((1 - share) + share / max);
    }

    /** Ends the search, holding {@code workers} workers, measured at {@code measured}. */
    private void hold(int workers, double measured) {
        searching = false;
        heldGoodput = measured;
        heldWindows = 0;
        moveTo(workers);
    }

    /** Moves to the next k to measure, or to the k the search converged on. */
    private void next() {
        int candidate = nextToMeasure();
        if (candidate > 0) {
            moveTo(candidate);
            return;
        }
        hold(hi, goodput[hi]);
    }

    /** The next k the search needs a window of, narrowing on what is known; 0 when {@link #hi} is the choice. */
    private int nextToMeasure() {
        if (Double.isNaN(goodput[1])) {
            return 1;
        }
        if (!peakFound) {
            while (hi - lo > 2) {
                int span = hi - lo;
                int c = hi - (int) Math.round(span * GOLDEN);
                int d = Math.max(lo + (int) Math.round(span * GOLDEN), c + 1);
                if (Double.isNaN(goodput[c])) {
                    return c;
                }
                if (Double.isNaN(goodput[d])) {
                    return d;
                }
                // Unimodal: the peak is not beyond the lower of the two inner points.
                if (goodput[c] >= goodput[d]) {
                    hi = d - 1;
                } else {
                    lo = c + 1;
                }
            }
            for (int i = lo; i <= hi; i++) {
                if (Double.isNaN(goodput[i])) {
                    return i;
                }
            }
            int peak = 1;
            for (int i = 2; i <= max; i++) {
                if (goodput[i] > goodput[peak]) { // false for NaN
                    peak = i;
                }
            }
            peakFound = true;
            target = TIE * goodput[peak];
            lo = 1;
            hi = goodput[1] >= target ? 1 : peak;
        }
        // Bisection, keeping goodput[lo] < target <= goodput[hi].
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (Double.isNaN(goodput[mid])) {
                return mid;
            }
            if (goodput[mid] >= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return 0;
    }

    private void moveTo(int next) {
        if (next != k) {
            warmup = k;
            windowBytes = 0;
            windowBlocks = 0;
        }
        k = next;
    }

    @Override
    public String toString() {
        return "WorkerCountTuner{k=" + k + "/" + max + ", " + windows + " windows" + (searching
                ? (peakFound ? ", fewest within the tie in [" : ", peak in [") + lo + ", " + hi + "]"
                : ", holding at " + Math.round(heldGoodput) + " B/s" + (heldForShare ? " for the codec share" : ""))
                + "}";
    }
}
