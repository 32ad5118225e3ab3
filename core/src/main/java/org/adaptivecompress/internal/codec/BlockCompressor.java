package org.adaptivecompress.internal.codec;

/**
 * Compresses whole blocks with one codec at one level.
 *
 * <p>An instance owns native contexts and scratch buffers and reuses them for every block, so it
 * is not thread-safe: give each compressing thread its own, and close it to free native memory.
 */
public interface BlockCompressor extends AutoCloseable {

    /** Returned by {@link #compress} when the result would not fit in the destination. */
    int DOES_NOT_FIT = -1;

    /**
     * Compresses {@code src[srcOffset, srcOffset + srcLength)} into {@code dst}.
     *
     * <p>Callers pass as {@code dstLength} the largest result worth keeping (for example a little
     * under {@code srcLength}); a codec stops early and answers {@link #DOES_NOT_FIT} when the
     * block would not shrink that far, which is how incompressible data is detected cheaply.
     *
     * @return the number of bytes written to {@code dst}, or {@link #DOES_NOT_FIT}
     */
    int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength);

    /** Frees native resources; the compressor must not be used afterwards. Idempotent. */
    @Override
    void close();
}
