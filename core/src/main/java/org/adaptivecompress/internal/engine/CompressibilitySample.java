package org.adaptivecompress.internal.engine;

import java.util.Arrays;

/**
 * A cheap guess, from a sample of a block's bytes, whether a codec could shrink it: the order-0
 * entropy of each quarter of the block, sampled in short runs. Used while the engine backs off
 * after incompressible blocks, so that a block where compressible data begins again is tried
 * at once instead of going out raw until the backoff's next retry (btrfs decides whether to
 * compress an extent by the same kind of sampled byte statistics).
 *
 * <p>It only errs one way that costs bytes: data that compresses through repeats of
 * high-entropy bytes (a random record repeated) looks incompressible here, and is found by
 * the backoff's retries as before. The sample reads 8 KiB of a block, whatever its length.
 */
final class CompressibilitySample {

    /** Quarters shorter than this are not sampled: a block this small costs little to try. */
    private static final int MIN_QUARTER = 1024;
    /** Bytes read from each quarter at most, as {@link #RUNS} evenly spaced runs. */
    private static final int SAMPLE_PER_QUARTER = 2048;
    private static final int RUNS = 16;
    /**
     * A quarter whose sampled bytes carry fewer bits each than this is worth trying. A codec
     * keeps a block only if it saves 1/32 of it, which order-0 coding alone reaches below 7.75
     * bits; 2 KiB of random bytes measure 7.91 (the estimate's bias for 2 KiB of 256 values).
     */
    private static final double COMPRESSIBLE_BITS_PER_BYTE = 7.75;

    /** {@code c * log2(c)} for every count a sample can reach, so a quarter costs no logarithms. */
    private static final double[] C_LOG2_C = new double[SAMPLE_PER_QUARTER + 1];

    static {
        for (int c = 1; c <= SAMPLE_PER_QUARTER; c++) {
            C_LOG2_C[c] = c * (Math.log(c) / Math.log(2));
        }
    }

    private final int[] counts = new int[256];

    /** True if some quarter of {@code src[offset, offset + length)} looks compressible. */
    boolean looksCompressible(byte[] src, int offset, int length) {
        int quarter = length / 4;
        if (quarter < MIN_QUARTER) {
            return true;
        }
        for (int q = 0; q < 4; q++) {
            if (bitsPerByte(src, offset + q * quarter, quarter) < COMPRESSIBLE_BITS_PER_BYTE) {
                return true;
            }
        }
        return false;
    }

    private double bitsPerByte(byte[] src, int offset, int length) {
        Arrays.fill(counts, 0);
        int sampled = Math.min(length, SAMPLE_PER_QUARTER);
        int run = sampled / RUNS;
        int stride = length / RUNS;
        for (int r = 0; r < RUNS; r++) {
            int start = offset + r * stride;
            for (int i = start; i < start + run; i++) {
                counts[src[i] & 0xFF]++;
            }
        }
        int n = run * RUNS;
        // H = log2(n) - sum(c * log2(c)) / n, for counts c summing to n.
        double sum = 0;
        for (int c : counts) {
            sum += C_LOG2_C[c];
        }
        return C_LOG2_C[n] / n - sum / n;
    }
}
