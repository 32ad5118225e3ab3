package org.adaptivecompress.internal.codec;

import java.util.zip.DataFormatException;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;

/** Stores blocks as they are: rung 0 of every ladder, and the fallback for incompressible data. */
final class RawCodec implements BlockCompressor, BlockDecompressor {

    @Override
    public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
        if (srcLength > dstLength) {
            return DOES_NOT_FIT;
        }
        System.arraycopy(src, srcOffset, dst, dstOffset, srcLength);
        return srcLength;
    }

    @Override
    public void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int uncompressedLength)
            throws DataFormatException {
        if (srcLength != uncompressedLength) {
            throw new DataFormatException(
                    "raw block stores " + srcLength + " bytes but declares " + uncompressedLength);
        }
        System.arraycopy(src, srcOffset, dst, dstOffset, srcLength);
    }

    @Override
    public void close() {
        // nothing to free
    }
}
