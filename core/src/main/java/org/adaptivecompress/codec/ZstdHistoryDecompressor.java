package org.adaptivecompress.codec;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * Decodes the blocks a {@link ZstdHistoryCompressor} wrote, in the same order: one Zstandard
 * frame spread over many blocks, each block's payload decoding to that block alone. Refuses
 * frames with a window larger than it was told to accept, so a hostile stream cannot make it
 * allocate more than that.
 *
 * <p>Owns a native context; not thread-safe. Close it to free the memory.
 */
public final class ZstdHistoryDecompressor implements AutoCloseable {

    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    private final int maxWindowLog;
    private boolean frameOpen;
    private boolean closed;

    /** A decompressor with no frame open that refuses windows over {@code 1 << maxWindowLog} bytes. */
    public ZstdHistoryDecompressor(int maxWindowLog) {
        this.maxWindowLog = maxWindowLog;
        ctx.setLongMax(maxWindowLog);
    }

    /** Drops whatever frame is open; the reset clears the window limit, so it is set again. */
    private void restart() {
        ctx.reset();
        ctx.setLongMax(maxWindowLog);
        frameOpen = false;
    }

    /**
     * Decodes {@code src[srcOffset, srcOffset + srcLength)} into exactly
     * {@code uncompressedLength} bytes at {@code dst[dstOffset]}.
     *
     * @param continuesFrame false if the block starts a new frame (whatever was open is dropped)
     * @throws DataFormatException if the payload is not the next part of the frame or does not
     *     decode to exactly {@code uncompressedLength} bytes; the frame is then dropped
     */
    public void decompress(boolean continuesFrame, byte[] src, int srcOffset, int srcLength, byte[] dst,
            int dstOffset, int uncompressedLength) throws DataFormatException {
        if (closed) {
            throw new IllegalStateException("decompressor is closed");
        }
        if (!continuesFrame) {
            restart();
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

    /** Drops the open frame, if any: the next block must start a new one. */
    public void dropFrame() {
        if (frameOpen) {
            restart();
        }
    }

    /** Frees the native context. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ctx.close();
        }
    }
}
