package org.adaptivecompress.internal.codec;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictContentType;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.adaptivecompress.internal.codec.HistoryDecompressor;

/**
 * The {@link HistoryDecompressor} for {@link ZstdHistoryCompressor}'s blocks. Refuses frames
 * with a window larger than it was told to accept before allocating it. Owns a native context.
 */
final class ZstdHistoryDecompressor implements HistoryDecompressor {

    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    private final int maxWindowLog;
    /**
     * The open frame's prime, which its dictionary refers to rather than copies: one native
     * buffer per history, filled straight from the stream's tail, so a prime costs one copy and
     * no heap array. Grown in powers of two to the longest prime seen.
     */
    private ByteBuffer primeBuffer;
    /** The dictionary over {@link #primeBuffer} the open frame started from; null if none. */
    private ZstdDictDecompress primeDict;
    private boolean frameOpen;
    private boolean closed;

    /** A decompressor with no frame open that refuses windows over {@code 1 << maxWindowLog} bytes. */
    ZstdHistoryDecompressor(int maxWindowLog) {
        this.maxWindowLog = maxWindowLog;
        ctx.setLongMax(maxWindowLog);
    }

    /** Drops whatever frame is open; the reset clears the window limit, so it is set again. */
    private void restart() {
        ctx.reset();
        ctx.setLongMax(maxWindowLog);
        frameOpen = false;
        if (primeDict != null) {
            primeDict.close(); // after the reset, which dropped the context's reference to it
            primeDict = null;
        }
    }

    /** Starts the frame from {@code prime}: the context refers to it in {@link #primeBuffer}. */
    private void load(Prime prime) {
        int length = prime.length();
        if (primeBuffer == null || primeBuffer.capacity() < length) {
            // A power of two: a stream's primes grow with it up to the prime's length, in a few steps.
            primeBuffer = ByteBuffer.allocateDirect(Math.max(64 << 10, Integer.highestOneBit(length - 1) << 1));
        }
        primeBuffer.clear();
        prime.copyTo(primeBuffer);
        primeBuffer.flip();
        primeDict = new ZstdDictDecompress(primeBuffer, true, ZstdDictContentType.RAW_CONTENT);
        ctx.loadDict(primeDict);
    }

    @Override
    public void decompress(boolean continuesFrame, Prime prime, byte[] src, int srcOffset, int srcLength,
            byte[] dst, int dstOffset, int uncompressedLength) throws DataFormatException {
        if (closed) {
            throw new IllegalStateException("decompressor is closed");
        }
        if (!continuesFrame) {
            restart();
            if (prime != null && prime.length() > 0) {
                load(prime);
            }
        } else if (!frameOpen) {
            throw new DataFormatException("zstd block continues a history frame that no earlier block opened");
        }
        frameOpen = false;
        ByteBuffer in = ByteBuffer.wrap(src, srcOffset, srcLength);
        ByteBuffer out = ByteBuffer.wrap(dst, dstOffset, uncompressedLength);
        try {
            // Until both run out or a call makes no progress (output full or input used up).
            while (in.hasRemaining() || out.hasRemaining()) {
                int before = in.remaining() + out.remaining();
                ctx.decompressByteBufferStream(out, in);
                if (in.remaining() + out.remaining() == before) {
                    break;
                }
            }
        } catch (ZstdException e) {
            restart();
            throw CodecErrors.malformed("zstd", e);
        }
        int written = out.position() - dstOffset;
        if (in.hasRemaining() || written != uncompressedLength) {
            restart();
            throw in.hasRemaining()
                    ? new DataFormatException("zstd block decodes to more than the " + uncompressedLength
                            + " bytes its header declares")
                    : CodecErrors.wrongLength("zstd", written, uncompressedLength);
        }
        frameOpen = true;
    }

    @Override
    public void dropFrame() {
        if (frameOpen) {
            restart();
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ctx.close();
            if (primeDict != null) {
                primeDict.close();
                primeDict = null;
            }
        }
    }
}
