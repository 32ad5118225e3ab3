package org.adaptivecompress.internal.codec;

import java.util.zip.DataFormatException;

/**
 * Decodes the blocks a {@link HistoryCompressor} of the same codec wrote, in the same order:
 * one stream spread over many blocks, each block's payload decoding to that block alone. Never
 * holds a window larger than it was made for, whatever the input says.
 *
 * <p>Not thread-safe. Close it to free what it holds.
 */
public interface HistoryDecompressor extends AutoCloseable {

    /**
     * Decodes {@code src[srcOffset, srcOffset + srcLength)} into exactly
     * {@code uncompressedLength} bytes at {@code dst[dstOffset]}.
     *
     * @param continuesFrame false if the block starts a new stream (whatever was open is dropped)
     * @param prime for a block that starts a new stream primed with the stream's last bytes,
     *     those bytes; otherwise null. Read during this call only.
     * @throws DataFormatException if the payload is not the next part of the stream or does not
     *     decode to exactly {@code uncompressedLength} bytes; the stream is then dropped
     */
    void decompress(boolean continuesFrame, Prime prime, byte[] src, int srcOffset, int srcLength, byte[] dst,
            int dstOffset, int uncompressedLength) throws DataFormatException;

    /** Drops the open stream, if any: the next block must start a new one. */
    void dropFrame();

    /** Frees what the decompressor holds. Idempotent. */
    @Override
    void close();
}
