package org.adaptivecompress.internal.codec;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDictContentType;
import java.nio.ByteBuffer;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.HistoryCompressor;

/**
 * A {@link HistoryCompressor} for zstd: one Zstandard frame kept open across blocks at one
 * level, the window zstd's own streaming mode (and {@code zstd --adapt}) has, flushed after
 * each block. Owns a native context.
 */
final class ZstdHistoryCompressor implements HistoryCompressor {

    /** The first level whose default match tables (for large inputs) exceed {@link #MAX_TABLE_LOG}. */
    private static final int CAPPED_FROM_LEVEL = 9;
    /** Log2 of the entries of the hash and chain tables at most: 4 MiB each. */
    private static final int MAX_TABLE_LOG = 20;
    /**
     * Log2 of the hash table's entries below {@link #CAPPED_FROM_LEVEL}: 1 MiB, where these
     * levels' defaults (8-128K entries) keep too few positions to find a repeat a megabyte back,
     * whether streamed or loaded from the stream's last bytes (see setParameters): a history
     * primed with the last 2 MiB needs a table that keeps positions from all of them.
     */
    private static final int LOW_LEVEL_HASH_LOG = 18;
    /**
     * zstd's buffers beside its window and tables, about five 128 KiB blocks: the streaming
     * input's extra block, the output block, the literals and the sequence store.
     */
    private static final long BLOCK_WORKSPACE = 5L * 128 * 1024;

    private final ZstdCompressCtx ctx = new ZstdCompressCtx();
    private final int level;
    private final int windowLog;
    private final int hashLog;
    /** Log2 of the chain table's entries, 0 for none. */
    private final int chainLog;
    /** Bytes of the prime last loaded, which zstd keeps a copy of; read by {@link #nativeBytes()}. */
    private volatile int primeBytes;
    private boolean frameOpen;
    private volatile boolean closed;

    /**
     * @param windowLog log2 of the window: how far back a block may match, and what a reader
     *     must hold
     */
    ZstdHistoryCompressor(int level, int windowLog) {
        this.level = level;
        this.windowLog = windowLog;
        this.hashLog = level < CAPPED_FROM_LEVEL ? Math.min(LOW_LEVEL_HASH_LOG, windowLog) : Math.min(MAX_TABLE_LOG, windowLog);
        // 0 where the level has no chain table (zstd's fast strategy).
        this.chainLog = level < CAPPED_FROM_LEVEL ? NativeWindows.zstdChainLog(level) : Math.min(MAX_TABLE_LOG, windowLog);
        setParameters();
    }

    /** Sets the context's parameters: at creation, and again after each reset, which clears them. */
    private void setParameters() {
        ctx.setLevel(level);
        ctx.setChecksum(false);
        ctx.setWindowLog(windowLog);
        ctx.setHashLog(hashLog);
        if (level >= CAPPED_FROM_LEVEL) {
            // Left alone, these levels size their match tables for inputs of many megabytes
            // (66 MiB of native memory at level 15); a window of a few MiB needs no more than this.
            ctx.setChainLog(chainLog);
        }
    }

    @Override
    public boolean continuesFrame() {
        return frameOpen;
    }

    @Override
    public void prime(byte[] content) {
        abandonFrame();
        primeBytes = content.length;
        if (content.length > 0) {
            // Raw content: zstd treats it as data just before the frame, as its streaming mode
            // would have if these bytes had gone through it.
            ctx.loadDict(content, ZstdDictContentType.RAW_CONTENT);
        }
    }

    @Override
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
        ctx.reset(); // frees the loaded prime too
        primeBytes = 0;
        setParameters();
        frameOpen = false;
    }

    /** The window, the hash table, the chain table (4 bytes an entry), the last prime and {@link #BLOCK_WORKSPACE}. */
    @Override
    public long nativeBytes() {
        if (closed) {
            return 0;
        }
        long chain = chainLog > 0 ? 4L << chainLog : 0;
        return (1L << windowLog) + (4L << hashLog) + chain + primeBytes + BLOCK_WORKSPACE;
    }

    @Override
    public long heapBytes() {
        return 0;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ctx.close();
        }
    }
}
