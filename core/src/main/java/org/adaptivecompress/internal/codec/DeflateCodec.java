package org.adaptivecompress.internal.codec;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;

/** Raw deflate (RFC 1951, no zlib or gzip wrapper) through the JDK's reusable Deflater/Inflater. */
final class DeflateCodec {

    static final int MIN_LEVEL = 1;
    static final int MAX_LEVEL = 9;

    private DeflateCodec() {}

    static BlockCompressor compressor(int level) {
        return new Compressor(level);
    }

    static BlockDecompressor decompressor() {
        return new Decompressor();
    }

    private static final class Compressor implements BlockCompressor {
        private final Deflater deflater;

        Compressor(int level) {
            deflater = new Deflater(level, true);
        }

        @Override
        public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
            deflater.reset();
            deflater.setInput(src, srcOffset, srcLength);
            deflater.finish();
            int written = deflater.deflate(dst, dstOffset, dstLength);
            return deflater.finished() ? written : DOES_NOT_FIT;
        }

        @Override
        public void close() {
            deflater.end();
        }
    }

    private static final class Decompressor implements BlockDecompressor {
        private final Inflater inflater = new Inflater(true);

        @Override
        public void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset,
                int uncompressedLength) throws DataFormatException {
            inflater.reset();
            inflater.setInput(src, srcOffset, srcLength);
            int written = inflater.inflate(dst, dstOffset, uncompressedLength);
            if (written == uncompressedLength && !inflater.finished()) {
                throw CodecErrors.longer("deflate", uncompressedLength);
            }
            if (written != uncompressedLength || !inflater.finished()) {
                throw CodecErrors.wrongLength("deflate", written, uncompressedLength);
            }
            if (inflater.getRemaining() != 0) {
                throw CodecErrors.trailing("deflate", inflater.getRemaining());
            }
        }

        @Override
        public void close() {
            inflater.end();
        }
    }
}
