package org.adaptivecompress.internal.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.util.zip.DataFormatException;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;

/**
 * Zstandard frames through zstd-jni's reusable native contexts, taken from and given back to
 * {@link ZstdContexts}; any level, negative included.
 */
final class ZstdCodec {

    private ZstdCodec() {}

    static int minLevel() {
        return Zstd.minCompressionLevel();
    }

    static int maxLevel() {
        return Zstd.maxCompressionLevel();
    }

    static BlockCompressor compressor(int level) {
        return new Compressor(level);
    }

    static BlockDecompressor decompressor() {
        return new Decompressor();
    }

    private static final class Compressor implements BlockCompressor {
        private final ZstdCompressCtx ctx = ZstdContexts.takeCompressor();
        private boolean closed;

        Compressor(int level) {
            ctx.setLevel(level);
            // The frame format carries its own CRC32C of the content; zstd's would be redundant.
            ctx.setChecksum(false);
            ctx.setContentSize(true);
        }

        @Override
        public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
            if (closed) {
                // Its context may belong to another compressor by now.
                throw new IllegalStateException("compressor is closed");
            }
            return Codecs.compressZstd(ctx, src, srcOffset, srcLength, dst, dstOffset, dstLength);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                ZstdContexts.giveBack(ctx);
            }
        }
    }

    private static final class Decompressor implements BlockDecompressor {
        private final ZstdDecompressCtx ctx = ZstdContexts.takeDecompressor();
        private boolean closed;

        @Override
        public void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset,
                int uncompressedLength) throws DataFormatException {
            if (closed) {
                throw new IllegalStateException("decompressor is closed");
            }
            int written;
            try {
                written = ctx.decompressByteArray(dst, dstOffset, uncompressedLength, src, srcOffset, srcLength);
            } catch (ZstdException e) {
                throw CodecErrors.malformed("zstd", e);
            }
            if (written != uncompressedLength) {
                throw CodecErrors.wrongLength("zstd", written, uncompressedLength);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                ZstdContexts.giveBack(ctx);
            }
        }
    }
}
