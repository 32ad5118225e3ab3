package org.adaptivecompress.internal.codec;

import java.util.zip.DataFormatException;

/**
 * Decompresses whole blocks of one codec whose uncompressed length is known in advance.
 *
 * <p>Not thread-safe: an instance reuses its native context and buffers for every block.
 */
public interface BlockDecompressor extends AutoCloseable {

    /**
     * Decompresses {@code src[srcOffset, srcOffset + srcLength)} into exactly
     * {@code uncompressedLength} bytes at {@code dst[dstOffset]}.
     *
     * @throws DataFormatException if the input is not a valid block of this codec, or does not
     *     decode to exactly {@code uncompressedLength} bytes; nothing beyond
     *     {@code dst[dstOffset + uncompressedLength)} is ever written
     */
    void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int uncompressedLength)
            throws DataFormatException;

    /** Frees native resources; idempotent. */
    @Override
    void close();
}
