package org.adaptivecompress.control;

import java.util.Arrays;
import org.adaptivecompress.format.FrameFormat;

/**
 * What {@link ThroughputController} measured of each rung compressing without a history:
 * moving averages of its compression speed and ratio on recent blocks, and when they were
 * last measured. A rung never measured is extrapolated from the nearest one measured,
 * {@link ThroughputController#STEP_SLOWER} times slower and {@link ThroughputController#STEP_SMALLER}
 * times smaller per rung up, so the first decisions can jump straight to a plausible rung.
 * Rungs that keep a history have their own figures ({@link HistoryFigures}).
 *
 * <p>Not thread-safe; owned by one controller.
 */
final class RungFigures {

    private static final double ALPHA = 0.3;
    /** A stale figure off by this much (relative) is replaced, not averaged. */
    private static final double STALE_CHANGE = 0.3;
    /** How many times slower than a rung's stale figure one block must be to be taken for a hiccup (see learn). */
    private static final double ONE_BLOCK_SLOWDOWN = 4;
    /** A fresh ratio sample off by this much (relative) from its own rung's average means new data. */
    private static final double DATA_CHANGED = 0.35;
    /** The weight of each sample in {@link #changeRate}. */
    private static final double CHANGE_RATE_WEIGHT = 1.0 / 8;
    /** A change rate past which the data is taken for a mix, whose ratios are averaged (see learn). */
    private static final double MIXED_DATA_CHANGE_RATE = 0.25;
    private static final double RAW_SPEED_GUESS = 10e9;
    private static final double FIRST_RUNG_SPEED_GUESS = 1e9;
    private static final double FIRST_RUNG_RATIO_GUESS = 1.5;

    /** Per rung: input bytes per second and input bytes per byte sent; NaN until measured. */
    private double[] speed = new double[0];
    private double[] ratio = new double[0];
    /** The block count at which each rung was last measured. */
    private long[] measuredAt = new long[0];
    /** How often a sample lately was far from its rung's ratio: a moving average of 0s and 1s. */
    private double changeRate;
    /** Blocks measured at each rung since its figures were last replaced. */
    private int[] samples = new int[0];
    /** Per rung: whether its speed is one block's that replaced a faster stale figure (see learn). */
    private boolean[] slowedByOneBlock = new boolean[0];

    void size(int rungs) {
        if (speed.length != rungs) {
            speed = new double[rungs];
            ratio = new double[rungs];
            measuredAt = new long[rungs];
            samples = new int[rungs];
            slowedByOneBlock = new boolean[rungs];
            Arrays.fill(speed, Double.NaN);
            Arrays.fill(ratio, Double.NaN);
            Arrays.fill(measuredAt, Long.MIN_VALUE / 2);
        }
    }

    /** Rungs on the ladder. */
    int rungs() {
        return speed.length;
    }

    /**
     * Learns from block number {@code block}, compressed at {@code rung} without a history.
     * Each rung keeps moving averages of its own speed and ratio, not scaled by what other rungs
     * measure (that coupling lets estimates of rungs nobody measures drift); only a change of
     * data, seen as a sample far outside noise, resets the other rungs' ratios. Not while such
     * samples come often (more than one block in {@code 1 / MIXED_DATA_CHANGE_RATE} lately):
     * data whose kind changes every few blocks is a mix, and forgetting at each change left
     * every rung with the ratio of whichever kind it last compressed. On Netty's benchmark data
     * (seven kinds in turn, two blocks each) at 1 Gbit/s the rungs were compared on different
     * kinds block by block, and more went out at LZ4 and raw.
     *
     * @return whether the sample says the data changed, and the other rungs' ratios were forgotten
     */
    boolean learn(int rung, Observation o, long block) {
        double measuredSpeed = o.uncompressedLength() * 1e9 / o.compressNanos();
        double measuredRatio = rung == 0 ? 1 : (double) o.uncompressedLength()
                / (o.storedLength() + FrameFormat.BLOCK_HEADER_LENGTH);
        // A stale rung whose new sample is far outside what noise explains measured data that is
        // gone: the sample replaces its figures, or probes would need dozens of rounds to catch up.
        // So is a lone first sample, once: a rung's first block in a JVM can take 13 ms (class
        // loading, cold code) where the next takes 0.3, and averaged in, that one block would
        // keep the rung looking slow for a dozen more.
        boolean firstSampleOnly = samples[rung] == 1;
        boolean stale = block - measuredAt[rung] > ThroughputController.STALE_AFTER || firstSampleOnly;
        boolean replace = Double.isNaN(speed[rung])
                || stale && (offBy(measuredSpeed, speed[rung], STALE_CHANGE) || offBy(measuredRatio, ratio[rung], STALE_CHANGE));
        boolean farOff = !Double.isNaN(ratio[rung]) && offBy(measuredRatio, ratio[rung], DATA_CHANGED);
        changeRate += CHANGE_RATE_WEIGHT * ((farOff ? 1 : 0) - changeRate);
        boolean dataChanged = farOff && changeRate < MIXED_DATA_CHANGE_RATE;
        if (dataChanged) {
            // The data itself changed (text after random, say): every other rung's ratio
            // describes the old data, and a pessimistic one would never be tried again. Forget
            // them; they are extrapolated from this rung until measured.
            for (int r = 1; r < ratio.length; r++) {
                if (r != rung) {
                    ratio[r] = Double.NaN;
                }
            }
            replace = true;
        }
        samples[rung] = replace && !firstSampleOnly ? 1 : samples[rung] + 1;
        // One block can be slowed by the writer losing its core (885 us for an LZ4 block that
        // takes 63 at 10 Gbit/s), and a rung that looks slow on it may never be probed again.
        slowedByOneBlock[rung] = replace && !dataChanged && measuredSpeed * ONE_BLOCK_SLOWDOWN < speed[rung];
        if (replace) {
            speed[rung] = measuredSpeed;
            ratio[rung] = measuredRatio;
        } else {
            speed[rung] = speed[rung] + ALPHA * (measuredSpeed - speed[rung]);
            // A ratio another rung's sample forgot is this sample. Averaged with NaN it stayed
            // forgotten for as long as the rung kept being measured: on data that changes every
            // two blocks, LZ4 held at Netty's 1 Gbit/s kept the guessed ratio of 1.5 for a
            // whole transfer, whatever its blocks measured.
            ratio[rung] = Double.isNaN(ratio[rung]) ? measuredRatio : ratio[rung] + ALPHA * (measuredRatio - ratio[rung]);
        }
        measuredAt[rung] = block;
        return dataChanged;
    }

    /**
     * Learns {@code rung}'s speed from a queued frame compressed again there: the block is of
     * the data the stream queued, so its ratio is left alone, and so is when the rung was last
     * measured. A sample slower than the figure by more than noise replaces it: the figure may
     * come from one block of other data (xz:6 took half JPEG, half protobuf at 7 MB/s and the
     * corpus' other blocks at 2-4), and each queued frame compressed again on it while the
     * link waits for the next costs the link the difference.
     */
    void learnRecompressedSpeed(int rung, double measuredSpeed) {
        if (Double.isNaN(speed[rung])) {
            return;
        }
        speed[rung] = measuredSpeed < speed[rung] * (1 - STALE_CHANGE) ? measuredSpeed
                : speed[rung] + ALPHA * (measuredSpeed - speed[rung]);
    }

    /** Marks {@code rung} measured at block {@code block} by figures kept elsewhere (its history's). */
    void measuredElsewhere(int rung, long block) {
        measuredAt[rung] = block;
    }

    /** Whether {@code measured} differs from {@code estimate} by more than {@code fraction} of it. */
    private static boolean offBy(double measured, double estimate, double fraction) {
        return Math.abs(measured / estimate - 1) > fraction;
    }

    /** Whether {@code rung}'s speed rests on one block alone that replaced a faster stale figure (see learn). */
    boolean slowedByOneBlock(int rung) {
        return slowedByOneBlock[rung];
    }

    /** Whether {@code rung} was ever measured without a history (its speed is known). */
    boolean seen(int rung) {
        return !Double.isNaN(speed[rung]);
    }

    /** Blocks since {@code rung} was last measured, at block {@code block}. */
    long age(int rung, long block) {
        return block - measuredAt[rung];
    }

    /**
     * Whether {@code rung}'s speed and ratio were measured on the data at hand, within the last
     * {@value ThroughputController#STALE_AFTER} blocks before {@code block}, rather than
     * extrapolated from a neighbour or left over.
     */
    boolean measuredLately(int rung, long block) {
        return !Double.isNaN(speed[rung]) && !Double.isNaN(ratio[rung]) && age(rung, block) <= ThroughputController.STALE_AFTER;
    }

    /** The highest speed measured at a rung that compresses; NaN if none was. */
    double fastestCodecSpeed() {
        double fastest = Double.NaN;
        for (int r = 1; r < speed.length; r++) {
            if (!Double.isNaN(speed[r]) && (Double.isNaN(fastest) || speed[r] > fastest)) {
                fastest = speed[r];
            }
        }
        return fastest;
    }

    /** Input bytes per second at {@code rung}: measured, or extrapolated. */
    double estimatedSpeed(int rung) {
        if (!Double.isNaN(speed[rung])) {
            return speed[rung];
        }
        if (rung == 0) {
            return RAW_SPEED_GUESS;
        }
        // Raw's speed is a memory copy and says nothing about codecs: extrapolate from the
        // nearest measured codec, or from a guess at a fast one.
        int known = nearestKnown(speed, rung, 1);
        if (known < 0) {
            return FIRST_RUNG_SPEED_GUESS / Math.pow(ThroughputController.STEP_SLOWER, rung - 1);
        }
        return speed[known] / Math.pow(ThroughputController.STEP_SLOWER, rung - known);
    }

    /** Input bytes per byte sent at {@code rung}: measured, or extrapolated; 1 at raw. */
    double estimatedRatio(int rung) {
        if (rung == 0) {
            return 1;
        }
        if (!Double.isNaN(ratio[rung])) {
            return ratio[rung];
        }
        int known = nearestKnown(ratio, rung, 0);
        if (known <= 0) {
            // Nothing measured yet: guess that the data compresses somewhat, so the controller
            // tries; one block shows whether it does.
            return FIRST_RUNG_RATIO_GUESS * Math.pow(ThroughputController.STEP_SMALLER, rung - 1);
        }
        return ratio[known] * Math.pow(ThroughputController.STEP_SMALLER, rung - known);
    }

    /** The measured rung at or above {@code lowest} nearest to {@code rung}, preferring the one below; -1 if none. */
    private static int nearestKnown(double[] values, int rung, int lowest) {
        for (int d = 1; d < values.length; d++) {
            if (rung - d >= lowest && !Double.isNaN(values[rung - d])) {
                return rung - d;
            }
            if (rung + d < values.length && !Double.isNaN(values[rung + d])) {
                return rung + d;
            }
        }
        return -1;
    }
}
