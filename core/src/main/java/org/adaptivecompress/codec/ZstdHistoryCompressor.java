package org.adaptivecompress.codec;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.ByteBuffer;

/**
 * Compresses a run of blocks at one zstd level as one Zstandard frame kept open between them,
 * so each block may match anything in the window of earlier blocks this compressor took, not
 * only itself: the window zstd's own streaming mode (and {@code zstd --adapt}) has. Each block
 * is flushed, so its payload decodes in full once the blocks before it in the frame have been
 * decoded.
 *
 * <p>A block that does not shrink enough abandons the frame: the caller stores it raw, and the
 * next block starts a new frame, which {@link #continuesFrame()} reports for its header.
 *
 * <p>Owns a native context; one thread at a time, in stream order. Close it to free the memory.
 */
public final class ZstdHistoryCompressor implements AutoCloseable {

    /** The first level whose default match tables (for large inputs) exceed {@link #MAX_TABLE_LOG}. */
    private static final int CAPPED_FROM_LEVEL = 9;
    /** Log2 of the entries of the hash and chain tables at most: 4 MiB each. */
    private static final int MAX_TABLE_LOG = 20;

    private final ZstdCompressCtx ctx = new ZstdCompressCtx();
    private final int level;
    private final int windowLog;
    private boolean frameOpen;
    private boolean closed;

    /**
     * @param windowLog log2 of the window: how far back a block may match, and what a reader
     *     must hold
     */
    public ZstdHistoryCompressor(int level, int windowLog) {
        this.level = level;
        this.windowLog = windowLog;
        setParameters();
    }

    /** Sets the context's parameters: at creation, and again after each reset, which clears them. */
    private void setParameters() {
        ctx.setLevel(level);
        ctx.setChecksum(false);
        ctx.setWindowLog(windowLog);
        if (level >= CAPPED_FROM_LEVEL) {
            // Left alone, these levels size their match tables for inputs of many megabytes
            // (66 MiB of native memory at level 15); a window of a few MiB needs no more than this.
            ctx.setHashLog(Math.min(MAX_TABLE_LOG, windowLog));
            ctx.setChainLog(Math.min(MAX_TABLE_LOG, windowLog));
        }
    }

    /** True if the next block continues the frame the previous block left open. */
    public boolean continuesFrame() {
        return frameOpen;
    }

    /**
     * Compresses {@code src[srcOffset, srcOffset + srcLength)} into the open frame (or a new one)
     * and flushes it into {@code dst}.
     *
     * @param dstLength the largest result worth keeping
     * @return the bytes written, or {@link BlockCompressor#DOES_NOT_FIT}, after which the frame
     *     is abandoned and the next block starts a new one
     */
    public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
        if (closed) {
            throw new IllegalStateException("compressor is closed");
        }
        ByteBuffer in = ByteBuffer.wrap(src, srcOffset, srcLength);
        ByteBuffer out = ByteBuffer.wrap(dst, dstOffset, dstLength);
        boolean flushed;
        try {
            flushed = ctx.compressByteBufferStream(out, in, EndDirective.FLUSH);
        } catch (RuntimeException e) {
            abandonFrame();
            throw e;
        }
        if (!flushed || in.hasRemaining()) {
            abandonFrame();
            return BlockCompressor.DOES_NOT_FIT;
        }
        frameOpen = true;
        return out.position() - dstOffset;
    }

    private void abandonFrame() {
        ctx.reset();
        setParameters();
        frameOpen = false;
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
