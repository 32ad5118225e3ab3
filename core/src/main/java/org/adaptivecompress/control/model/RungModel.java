package org.adaptivecompress.control.model;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * What each rung does on the stream's data: its compression speed and ratio, measured on the
 * blocks compressed at it, kept per kind of data, and predicted for the rungs not measured
 * lately from the {@link RungPriors} scaled to what the stream measured.
 *
 * <p>Data is told apart by its compressibility: a block's ratio at its rung over the ratio that
 * rung has on the reference data, on a scale of steps of {@value #CLASS_STEP}. So when a mix of
 * JSON, prose and binaries returns to JSON, each rung's figures on JSON are still there. Blocks
 * that did not shrink form a class of their own. Not thread-safe; owned by one controller.
 */
final class RungModel {

    /** Classes of compressibility are this factor apart: finer than the gaps between kinds of data. */
    static final double CLASS_STEP = 1.3;
    /** Classes each side of the reference data's: compressibility from 1/30 to 30 times it. */
    private static final int CLASS_SPAN = 13;
    /** The class of blocks that did not shrink. */
    private static final int INCOMPRESSIBLE = 2 * CLASS_SPAN + 1;
    /** The weight of a new block in a rung's moving averages: a few blocks, for noise, yet quick to follow. */
    private static final double ALPHA = 0.3;
    /** A figure measured within this many blocks stands for itself; an older one is predicted again. */
    static final int FRESH_BLOCKS = 256;
    /** A block this many times more or less compressible than the last ones starts a new run of data. */
    private static final double DATA_CHANGED = 1.5;
    /** The weight of a block in the compressibility the class is read from, within a run of data. */
    private static final double COMPRESSIBILITY_ALPHA = 0.5;

    private final RungPriors priors;
    private final int rungs;
    private final double[][] speed;
    private final double[][] ratio;
    private final long[][] measuredAt;
    /** Per rung: whether a block was compressed at it in this stream (its first creates the codec's context). */
    private final boolean[] used;
    /** Per class, then over all: measured speed over the prior speed, a moving average; NaN before any. */
    private final double[] speedFactor;
    private double overallSpeedFactor = Double.NaN;
    /** Codec CPU time over codec wall time, a moving average; 1 until measured (the thread never waited). */
    private double cpuShare = 1;
    /** Compressibility of the current data relative to the reference data (1: as compressible). */
    private double compressibility = 1;
    private int currentClass = CLASS_SPAN;
    private long blocks;

    RungModel(Ladder ladder) {
        this.priors = new RungPriors(ladder);
        this.rungs = ladder.size();
        int classes = INCOMPRESSIBLE + 1;
        speed = new double[classes][rungs];
        ratio = new double[classes][rungs];
        measuredAt = new long[classes][rungs];
        used = new boolean[rungs];
        speedFactor = new double[classes];
        for (int k = 0; k < classes; k++) {
            java.util.Arrays.fill(speed[k], Double.NaN);
            java.util.Arrays.fill(ratio[k], Double.NaN);
            java.util.Arrays.fill(measuredAt[k], Long.MIN_VALUE / 2);
            speedFactor[k] = Double.NaN;
        }
    }

    /** Learns from the block an observation reports; blocks stored raw without trying teach nothing. */
    void learn(Observation o) {
        blocks++;
        int r = o.rung();
        if (o.skipped() || o.uncompressedLength() <= 0 || o.compressNanos() <= 0) {
            return;
        }
        double measuredRatio = (double) o.uncompressedLength() / (o.storedLength() + FrameFormat.BLOCK_HEADER_LENGTH);
        if (o.incompressible() && r > 0) {
            currentClass = INCOMPRESSIBLE;
        } else if (r > 0) {
            follow(Math.max(1e-3, (measuredRatio - 1) / (priors.ratio(r) - 1)));
        }
        double measuredSpeed = o.uncompressedLength() * 1e9 / o.compressNanos();
        if (r > 0 && o.cpuNanos() > 0) {
            cpuShare += ALPHA * (Math.min(1, (double) o.cpuNanos() / o.compressNanos()) - cpuShare);
        }
        if (!used[r]) {
            used[r] = true; // the first block at a rung makes its context and warms caches: not the rung's speed
            measuredSpeed = Double.NaN;
        }
        record(currentClass, r, measuredSpeed, measuredRatio);
    }

    /** Input bytes per second rung {@code r} compresses the current data at (one worker's share divided in). */
    double speed(int r) {
        if (fresh(r)) {
            return speed[currentClass][r];
        }
        double factor = !Double.isNaN(speedFactor[currentClass]) ? speedFactor[currentClass]
                : !Double.isNaN(overallSpeedFactor) ? overallSpeedFactor : 1;
        return priors.speed(r) * factor;
    }

    /**
     * Input bytes rung {@code r} compresses per second of CPU: {@link #speed} over the share of
     * the codec's time its thread had a core. What a CPU budget and a CPU price count.
     */
    double cpuSpeed(int r) {
        return speed(r) / Math.max(1e-3, cpuShare);
    }

    /**
     * Input bytes per CPU-second a reader decodes rung {@code r} at: the reference machine's
     * figure, since the writer cannot measure the reader's.
     */
    double decodeSpeed(int r) {
        return priors.decodeSpeed(r);
    }

    /** Rung {@code r}'s ratio (input over frame bytes) on the current data. */
    double ratio(int r) {
        if (fresh(r)) {
            return ratio[currentClass][r];
        }
        if (r == 0 || currentClass == INCOMPRESSIBLE) {
            return 1;
        }
        return 1 + compressibility * (priors.ratio(r) - 1);
    }

    /** Whether rung {@code r} was measured on the current kind of data within {@link #FRESH_BLOCKS} blocks. */
    boolean fresh(int r) {
        return blocks - measuredAt[currentClass][r] <= FRESH_BLOCKS;
    }

    /** Whether the last blocks tried did not shrink. */
    boolean incompressible() {
        return currentClass == INCOMPRESSIBLE;
    }

    /** Rungs on the ladder. */
    int rungs() {
        return rungs;
    }

    /** The current data's compressibility relative to the reference data, for traces. */
    double compressibility() {
        return currentClass == INCOMPRESSIBLE ? 0 : compressibility;
    }

    /** Follows the data's compressibility: averaged within a run of data, reset when it changes. */
    private void follow(double measured) {
        if (Math.abs(Math.log(measured / compressibility)) > Math.log(DATA_CHANGED) || currentClass == INCOMPRESSIBLE) {
            compressibility = measured;
        } else {
            compressibility = Math.exp(Math.log(compressibility)
                    + COMPRESSIBILITY_ALPHA * (Math.log(measured) - Math.log(compressibility)));
        }
        int step = (int) Math.round(Math.log(compressibility) / Math.log(CLASS_STEP));
        currentClass = CLASS_SPAN + Math.max(-CLASS_SPAN, Math.min(CLASS_SPAN, step));
    }

    /** Records a block's figures; a NaN speed records its ratio alone, the speed predicted meanwhile. */
    private void record(int k, int r, double measuredSpeed, double measuredRatio) {
        boolean wasFresh = blocks - measuredAt[k][r] <= FRESH_BLOCKS;
        if (Double.isNaN(measuredSpeed)) {
            measuredSpeed = wasFresh ? speed[k][r] : speed(r);
        }
        speed[k][r] = wasFresh ? speed[k][r] + ALPHA * (measuredSpeed - speed[k][r]) : measuredSpeed;
        ratio[k][r] = wasFresh ? ratio[k][r] + ALPHA * (measuredRatio - ratio[k][r]) : measuredRatio;
        measuredAt[k][r] = blocks;
        if (r > 0) {
            double factor = measuredSpeed / priors.speed(r);
            speedFactor[k] = Double.isNaN(speedFactor[k]) ? factor : speedFactor[k] + ALPHA * (factor - speedFactor[k]);
            overallSpeedFactor = Double.isNaN(overallSpeedFactor) ? factor
                    : overallSpeedFactor + ALPHA * (factor - overallSpeedFactor);
        }
    }
}
