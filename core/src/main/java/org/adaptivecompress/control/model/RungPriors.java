package org.adaptivecompress.control.model;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;

/**
 * What each rung is expected to do before the stream has measured it: compression speed and
 * ratio on the project's reference data, 128 KiB blocks compressed alone on one thread (the
 * survey in docs/LADDER.md). Only their shape matters: the model scales them by what it
 * measures on the stream's own data and machine ({@link RungModel}).
 */
final class RungPriors {

    /** Input bytes per second of a raw block: its checksum and copy, faster than every codec. */
    private static final double RAW_SPEED = 10e9;

    /** zstd levels surveyed, with their speeds (MB/s) and ratios: interpolated between, held beyond. */
    private static final int[] ZSTD_LEVELS = {-5, -1, 1, 2, 3, 5, 7, 9, 12, 15, 19, 22};
    private static final double[] ZSTD_SPEED = {854, 695, 647, 572, 464, 159, 100, 87, 33, 11, 3.1, 2.0};
    private static final double[] ZSTD_RATIO = {2.66, 2.99, 3.64, 3.70, 3.76, 3.83, 3.98, 4.03, 4.06, 4.18, 4.19, 4.20};
    private static final int[] XZ_PRESETS = {0, 1, 3, 6, 9};
    private static final double[] XZ_SPEED = {25, 20.8, 16.6, 4.2, 3.5};
    private static final double[] XZ_RATIO = {3.85, 3.94, 4.01, 4.25, 4.27};
    private static final int[] DEFLATE_LEVELS = {1, 6, 9};
    private static final double[] DEFLATE_SPEED = {143, 52, 29};
    private static final double[] DEFLATE_RATIO = {3.03, 3.42, 3.46};
    private static final int[] LZ4HC_LEVELS = {1, 4, 9, 17};
    private static final double[] LZ4HC_SPEED = {80, 62.5, 57.6, 20};
    private static final double[] LZ4HC_RATIO = {2.9, 3.00, 3.05, 3.08};
    private static final double LZ4_SPEED = 945;
    private static final double LZ4_RATIO = 2.51;
    /**
     * Decoded bytes per CPU-second per codec (MB/s), the survey's medians over levels: a codec
     * decodes about as fast at every level, so one figure each is as good as a table.
     */
    private static final double LZ4_DECODE = 5300;
    private static final double ZSTD_DECODE = 1850;
    private static final double XZ_DECODE = 50;
    private static final double DEFLATE_DECODE = 530;

    private final double[] speed;
    private final double[] ratio;
    private final double[] decodeSpeed;

    RungPriors(Ladder ladder) {
        speed = new double[ladder.size()];
        ratio = new double[ladder.size()];
        decodeSpeed = new double[ladder.size()];
        for (int r = 0; r < ladder.size(); r++) {
            double[] prior = prior(ladder.rung(r));
            speed[r] = prior[0];
            ratio[r] = prior[1];
            decodeSpeed[r] = decodeSpeed(ladder.rung(r));
        }
    }

    /** Input bytes per CPU-second a reader decodes rung {@code r}'s blocks at, on the reference machine. */
    double decodeSpeed(int r) {
        return decodeSpeed[r];
    }

    /** Input bytes per second rung {@code r} compresses the reference data at. */
    double speed(int r) {
        return speed[r];
    }

    /** Rung {@code r}'s ratio on the reference data (input over output). */
    double ratio(int r) {
        return ratio[r];
    }

    /** {speed in bytes per second, ratio} of one rung. */
    static double[] prior(Rung rung) {
        int level = rung.level();
        switch (rung.codec()) {
            case LZ4:
                return level <= 0 ? new double[] {LZ4_SPEED * 1e6, LZ4_RATIO}
                        : interpolate(LZ4HC_LEVELS, LZ4HC_SPEED, LZ4HC_RATIO, level);
            case ZSTD:
                return interpolate(ZSTD_LEVELS, ZSTD_SPEED, ZSTD_RATIO, level);
            case XZ:
                return interpolate(XZ_PRESETS, XZ_SPEED, XZ_RATIO, level);
            case DEFLATE:
                return interpolate(DEFLATE_LEVELS, DEFLATE_SPEED, DEFLATE_RATIO, level);
            default:
                return new double[] {RAW_SPEED, 1};
        }
    }

    private static double decodeSpeed(Rung rung) {
        switch (rung.codec()) {
            case LZ4:
                return LZ4_DECODE * 1e6;
            case ZSTD:
                return ZSTD_DECODE * 1e6;
            case XZ:
                return XZ_DECODE * 1e6;
            case DEFLATE:
                return DEFLATE_DECODE * 1e6;
            default:
                return RAW_SPEED;
        }
    }

    /** Speed geometrically and ratio linearly between the surveyed levels around {@code level}. */
    private static double[] interpolate(int[] levels, double[] mbps, double[] ratios, int level) {
        if (level <= levels[0]) {
            return new double[] {mbps[0] * 1e6, ratios[0]};
        }
        for (int i = 1; i < levels.length; i++) {
            if (level <= levels[i]) {
                double t = (double) (level - levels[i - 1]) / (levels[i] - levels[i - 1]);
                double s = Math.exp(Math.log(mbps[i - 1]) + t * (Math.log(mbps[i]) - Math.log(mbps[i - 1])));
                return new double[] {s * 1e6, ratios[i - 1] + t * (ratios[i] - ratios[i - 1])};
            }
        }
        int last = levels.length - 1;
        return new double[] {mbps[last] * 1e6, ratios[last]};
    }
}
