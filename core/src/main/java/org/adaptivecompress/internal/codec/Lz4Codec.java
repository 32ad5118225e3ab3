package org.adaptivecompress.internal.codec;

import java.util.zip.DataFormatException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;

/** LZ4 block format: level 0 is the fast compressor, levels 1-17 are LZ4 HC. */
final class Lz4Codec {

    static final int FAST = 0;
    static final int MAX_HC_LEVEL = 17;

    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();

    private Lz4Codec() {}

    static BlockCompressor compressor(int level) {
        LZ4Compressor compressor = level == FAST ? FACTORY.fastCompressor() : FACTORY.highCompressor(level);
        return new Compressor(compressor);
    }

    static BlockDecompressor decompressor() {
        return new Decompressor(FACTORY.safeDecompressor());
    }

    private static final class Compressor implements BlockCompressor {
        private final LZ4Compressor compressor;

        Compressor(LZ4Compressor compressor) {
            this.compressor = compressor;
        }

        @Override
        public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
            try {
                return compressor.compress(src, srcOffset, srcLength, dst, dstOffset, dstLength);
            } catch (LZ4Exception tooSmall) {
                // lz4 reports an exhausted destination this way; any other failure is impossible
                // for in-bounds arrays.
                return DOES_NOT_FIT;
            }
        }

        @Override
        public void close() {
            // lz4-java compressors hold no native state
        }
    }

    private static final class Decompressor implements BlockDecompressor {
        private final LZ4SafeDecompressor decompressor;

        Decompressor(LZ4SafeDecompressor decompressor) {
            this.decompressor = decompressor;
        }

        @Override
        public void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset,
                int uncompressedLength) throws DataFormatException {
            int written;
            try {
                written = decompressor.decompress(src, srcOffset, srcLength, dst, dstOffset, uncompressedLength);
            } catch (LZ4Exception e) {
                throw CodecErrors.malformed("lz4", e);
            }
            if (written != uncompressedLength) {
                throw CodecErrors.wrongLength("lz4", written, uncompressedLength);
            }
        }

        @Override
        public void close() {
            // nothing native
        }
    }
}
