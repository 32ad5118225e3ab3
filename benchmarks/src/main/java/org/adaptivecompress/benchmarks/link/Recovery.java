package org.adaptivecompress.benchmarks.link;

import java.util.OptionalInt;

/**
 * How fast an adaptive sender catches up after the link's rate steps, counted in blocks of input.
 *
 * <p>Definition. The receiver records the time {@code s[k]} at which it had verified
 * {@code (k + 1)} blocks of {@value Agents#SAMPLE_BYTES} bytes. A step takes effect at time
 * {@code t} (the driver's clock right after the new rate was applied). The blocks after the step
 * are those verified after {@code t}, numbered 1, 2, ... up to the end of the stretch of input
 * the new rate applies to. The sender has <em>recovered after n blocks</em> for the smallest
 * {@code n >= } {@value #WINDOW} such that the window of the last {@value #WINDOW} blocks, blocks
 * {@code n - 7} to {@code n}, went at a goodput of at least {@value #SHARE} times the new rate's
 * best: window goodput is its {@value #WINDOW} blocks' bytes over the time from the verification
 * of the block before the window (or from {@code t}, if that block came before the step) to the
 * verification of block {@code n}; the best is the stretch's length over the fastest fixed rung's
 * time on that stretch alone ({@link PerSegmentBest}). Blocks still in flight at the step (the
 * socket buffers and the queue) count as blocks after it: what a user sees is the data that
 * arrives after the link changed. A sender that never reaches the mark within the stretch has
 * not recovered.
 */
final class Recovery {

    /** Blocks in a window: 1 MiB, enough to even out the bursts in which a loopback receiver reads. */
    static final int WINDOW = 8;
    /** The share of the best goodput that counts as recovered. */
    static final double SHARE = 0.9;

    private Recovery() {}

    /**
     * Blocks after the step until recovered, by the definition above; empty if not recovered
     * within the stretch.
     *
     * @param samples seconds since the start at which each block was verified
     * @param stepAt seconds since the start at which the step took effect
     * @param stretchEnd one past the last byte of the stretch the new rate applies to
     * @param bestGoodput the new rate's best fixed goodput, bytes per second
     */
    static OptionalInt blocksAfter(double[] samples, double stepAt, long stretchEnd, double bestGoodput) {
        int first = 0;
        while (first < samples.length && samples[first] <= stepAt) {
            first++;
        }
        int last = (int) Math.min(samples.length, stretchEnd / Agents.SAMPLE_BYTES);
        for (int k = first + WINDOW - 1; k < last; k++) {
            double from = k - WINDOW >= first ? samples[k - WINDOW] : stepAt;
            double goodput = (double) WINDOW * Agents.SAMPLE_BYTES / (samples[k] - from);
            if (goodput >= SHARE * bestGoodput) {
                return OptionalInt.of(k - first + 1);
            }
        }
        return OptionalInt.empty();
    }
}
