package org.adaptivecompress.internal.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Rung;

/** The codec behind each rung and each block's codec type: new compressors and decompressors, owned by the caller. */
public final class Codecs {

    /** The level of the LZ4 fast compressor; levels 1 and up are LZ4 HC. */
    public static final int LZ4_FAST = Lz4Codec.FAST;

    private Codecs() {}

    /**
     * Compresses {@code src[srcOffset, srcOffset + srcLength)} into one zstd frame at
     * {@code dst[dstOffset]} with {@code ctx} as it is set up (level, dictionary), at most
     * {@code dstLength} bytes: the frame's length, or {@link BlockCompressor#DOES_NOT_FIT}.
     */
    public static int compressZstd(ZstdCompressCtx ctx, byte[] src, int srcOffset, int srcLength, byte[] dst,
            int dstOffset, int dstLength) {
        try {
            return ctx.compressByteArray(dst, dstOffset, dstLength, src, srcOffset, srcLength);
        } catch (ZstdException e) {
            if (e.getErrorCode() == Zstd.errDstSizeTooSmall()) {
                return BlockCompressor.DOES_NOT_FIT;
            }
            throw e;
        }
    }

    /** The least level a rung of {@code codec} may have (LZ4 HC's for LZ4). */
    public static int minLevel(CodecType codec) {
        switch (codec) {
            case LZ4:
                return 1;
            case ZSTD:
                return ZstdCodec.minLevel();
            case XZ:
                return XzCodec.MIN_PRESET;
            case DEFLATE:
                return DeflateCodec.MIN_LEVEL;
            default:
                return 0;
        }
    }

    /** The greatest level a rung of {@code codec} may have. */
    public static int maxLevel(CodecType codec) {
        switch (codec) {
            case LZ4:
                return Lz4Codec.MAX_HC_LEVEL;
            case ZSTD:
                return ZstdCodec.maxLevel();
            case XZ:
                return XzCodec.MAX_PRESET;
            case DEFLATE:
                return DeflateCodec.MAX_LEVEL;
            default:
                return 0;
        }
    }

    /** A new compressor for {@code rung}, owned by the caller (close it). */
    public static BlockCompressor newCompressor(Rung rung) {
        switch (rung.codec()) {
            case RAW:
                return new RawCodec();
            case LZ4:
                return Lz4Codec.compressor(rung.level());
            case ZSTD:
                return ZstdCodec.compressor(rung.level());
            case XZ:
                return XzCodec.compressor(rung.level());
            case DEFLATE:
                return DeflateCodec.compressor(rung.level());
            default:
                throw new AssertionError(rung.codec());
        }
    }

    /**
     * A new compressor for {@code rung} that keeps a window of up to {@code 1 << windowLog} bytes
     * across the blocks it takes (see {@link HistoryCompressor}), owned by the caller;
     * {@code null} for codecs without one (raw, LZ4, deflate).
     */
    public static HistoryCompressor newHistoryCompressor(Rung rung, int windowLog) {
        switch (rung.codec()) {
            case ZSTD:
                return new ZstdHistoryCompressor(rung.level(), windowLog);
            case XZ:
                return new XzHistoryCompressor(rung.level(), windowLog);
            default:
                return null;
        }
    }

    /** A new decompressor for blocks of {@code codec}, owned by the caller. */
    public static BlockDecompressor newDecompressor(CodecType codec) {
        switch (codec) {
            case RAW:
                return new RawCodec();
            case LZ4:
                return Lz4Codec.decompressor();
            case ZSTD:
                return ZstdCodec.decompressor();
            case XZ:
                return XzCodec.decompressor();
            case DEFLATE:
                return DeflateCodec.decompressor();
            default:
                throw new AssertionError(codec);
        }
    }

    /**
     * A new decompressor for the history blocks of {@code codec} that never holds a window over
     * {@code 1 << maxWindowLog} bytes, owned by the caller.
     *
     * @throws IllegalStateException for a codec without histories
     */
    public static HistoryDecompressor newHistoryDecompressor(CodecType codec, int maxWindowLog) {
        switch (codec) {
            case ZSTD:
                return new ZstdHistoryDecompressor(maxWindowLog);
            case XZ:
                return new XzHistoryDecompressor(maxWindowLog);
            default:
                throw new IllegalStateException(codec + " blocks have no history");
        }
    }
}
