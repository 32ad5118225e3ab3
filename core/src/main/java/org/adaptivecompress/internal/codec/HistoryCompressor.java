package org.adaptivecompress.internal.codec;

/**
 * Compresses a run of blocks as one stream of its codec kept open between them, so each block
 * may match anything in the window of earlier blocks this compressor took, not only itself.
 * Each block is flushed, so its payload decodes in full once the blocks before it in the stream
 * have been decoded by a {@link HistoryDecompressor}.
 *
 * <p>A block whose result does not fit the room it is given abandons the stream: the caller
 * stores it raw, and the next block starts a new one, which {@link #continuesFrame()} reports
 * for its header. The engine gives a history block room for
 * {@link org.adaptivecompress.internal.format.FrameFormat#maxHistoryPayload its content and the
 * codec's chunk headers}, so the stream goes on across data that does not compress.
 *
 * <p>Owns native contexts or large arrays; one thread at a time, in stream order. Close it.
 */
public interface HistoryCompressor extends AutoCloseable {

    /** True if the next block continues the stream the previous block left open. */
    boolean continuesFrame();

    /**
     * Drops the open stream, if any: the next block starts a new one primed with
     * {@code content} (the stream's last bytes, oldest first), as if they had been compressed
     * into it just before, which a reader primes its own stream with too; empty, unprimed.
     */
    void prime(byte[] content);

    /**
     * Compresses {@code src[srcOffset, srcOffset + srcLength)} into the open stream (or a new
     * one) and flushes it into {@code dst}.
     *
     * @param dstLength the largest result the caller keeps
     * @return the bytes written, or {@link BlockCompressor#DOES_NOT_FIT}, after which the stream
     *     is abandoned and the next block starts a new one
     */
    int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength);

    /**
     * Native memory the compressor holds, in bytes: estimated from its parameters where the
     * codec cannot be asked. Safe from any thread.
     */
    long nativeBytes();

    /** Heap the compressor holds, in bytes, as its codec estimates it. Safe from any thread. */
    long heapBytes();

    /** Frees what the compressor holds. Idempotent. */
    @Override
    void close();
}
