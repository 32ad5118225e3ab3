package org.adaptivecompress.internal.engine;

import java.util.zip.CRC32C;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.Codecs;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * Turns one block into one frame at a given rung: the codec call (into the history the
 * job was lent, if any), the raw fallback when a block that decodes alone does not shrink (a
 * history's block stays in its stream, which then goes on), a look at a block
 * the engine planned to skip as incompressible (tried after all if it looks compressible),
 * the content CRC32C
 * and the salted block header. No decisions and no statistics: those stay in
 * {@link AdaptiveCompressor}, which makes encoders with
 * {@link AdaptiveCompressor#newFrameEncoder()}.
 *
 * <p>Owns one compressor per rung, created on first use and reused, so it allocates nothing per
 * block. Those hold native contexts: an encoder belongs to one thread at a time, and each
 * compressing thread needs its own. Close it to free them.
 */
public final class FrameEncoder implements AutoCloseable {

    private final Ladder ladder;
    private final int blockSize;
    private final int salt;
    private final BlockCompressor[] compressors;
    private final CRC32C crc = new CRC32C();
    private final CRC32C headerCrc = new CRC32C();
    private final CompressibilitySample sample = new CompressibilitySample();
    private boolean closed;

    FrameEncoder(Ladder ladder, int blockSize, int salt) {
        this.ladder = ladder;
        this.blockSize = blockSize;
        this.salt = salt;
        this.compressors = new BlockCompressor[ladder.size()];
    }

    /**
     * Compresses {@code src[offset, offset + length)} as {@code job} was planned into one frame
     * (header and payload) at {@code dst[dstOffset]}, which must have room for
     * {@link AdaptiveCompressor#maxFrameLength(int) maxFrameLength(length)} bytes, and records in
     * {@code job} what it produced.
     *
     * @param length 1 to the engine's block size
     * @return the frame's length
     */
    public int encode(BlockJob job, byte[] src, int offset, int length, byte[] dst, int dstOffset) {
        return encode(job, src, offset, length, dst, dstOffset, true);
    }

    /**
     * Like {@link #encode}, but a block stored raw is not copied: only its header goes to
     * {@code dst}, and the frame's payload is {@code src[offset, offset + length)} as it is,
     * which the caller sends right after the header ({@link BlockJob#payloadInSource()} says
     * which happened). Saves a copy of every raw block on a link faster than any codec.
     *
     * @return the bytes written to {@code dst}: the whole frame, or only its header
     */
    public int encodeLeavingRawPayload(BlockJob job, byte[] src, int offset, int length, byte[] dst, int dstOffset) {
        return encode(job, src, offset, length, dst, dstOffset, false);
    }

    private int encode(BlockJob job, byte[] src, int offset, int length, byte[] dst, int dstOffset,
            boolean copyRawPayload) {
        if (closed) {
            throw new IllegalStateException("frame encoder is closed");
        }
        checkBlockLength(length, blockSize);
        if (length != job.plannedLength) {
            throw new IllegalArgumentException("the job was planned for a block of " + job.plannedLength
                    + " bytes, not " + length);
        }
        int payloadOffset = dstOffset + FrameFormat.BLOCK_HEADER_LENGTH;
        if (job.skipped && job.plannedRung > 0 && sample.looksCompressible(src, offset, length)) {
            // Compressible data has begun again: try it now rather than at the backoff's next retry.
            job.skipped = false;
            job.tryRung = job.plannedRung;
        }
        int tryRung = job.tryRung;
        long start = System.nanoTime();
        // The thread's CPU clock costs about half a microsecond a read: only blocks a codec compresses pay it.
        long cpuStart = tryRung > 0 ? ThreadCpu.nanos() : 0;
        int stored = BlockCompressor.DOES_NOT_FIT;
        Histories.History history = job.history;
        boolean continues = false;
        // Worth compressing only if it saves at least 1/32 of the block.
        int worthKeeping = length - (length >>> 5) - 1;
        if (tryRung > 0) {
            if (history != null) {
                if (job.prime != null) {
                    history.compressor.prime(job.prime);
                }
                continues = history.compressor.continuesFrame();
                // Kept even if it does not shrink: storing it raw would end the history's stream,
                // and the next block would start from a prime of 2 MiB rather than the whole window.
                stored = history.compressor.compress(src, offset, length, dst, payloadOffset,
                        FrameFormat.maxHistoryPayload(length));
            } else {
                stored = compressor(tryRung).compress(src, offset, length, dst, payloadOffset, worthKeeping);
            }
        }
        job.startedHistory = history != null && !continues;
        job.didNotShrink = tryRung > 0 && (stored == BlockCompressor.DOES_NOT_FIT || stored > worthKeeping);
        Rung used;
        if (stored == BlockCompressor.DOES_NOT_FIT) {
            if (copyRawPayload) {
                System.arraycopy(src, offset, dst, payloadOffset, length);
            }
            stored = length;
            used = Rung.RAW;
            job.usedRung = 0;
        } else {
            used = ladder.rung(tryRung);
            job.usedRung = tryRung;
        }
        job.payloadInSource = used == Rung.RAW && !copyRawPayload;
        job.compressNanos = System.nanoTime() - start;
        job.uncompressedLength = length;
        job.storedLength = stored;

        crc.reset();
        crc.update(src, offset, length);
        job.contentCrc = (int) crc.getValue();
        job.cpuNanos = tryRung > 0 ? ThreadCpu.nanos() - cpuStart : 0;
        int historyId = history != null && used != Rung.RAW ? history.id : 0;
        int historyFlags = historyId == 0 ? 0
                : continues ? FrameFormat.BLOCK_FLAG_CONTINUES
                : job.prime != null ? job.primeFlag : 0;
        if (job.resetPoint) {
            historyFlags |= FrameFormat.BLOCK_FLAG_RESET;
        }
        FrameFormat.writeBlockHeader(dst, dstOffset, salt, used.codec().id(), used.level(), historyId,
                historyFlags, length, stored, job.contentCrc, job.streamOffset, headerCrc);
        job.frameLength = FrameFormat.BLOCK_HEADER_LENGTH + stored;
        return job.payloadInSource ? FrameFormat.BLOCK_HEADER_LENGTH : job.frameLength;
    }

    /**
     * Writes the end-of-stream marker carrying {@code digest} (see
     * {@link org.adaptivecompress.internal.format.StreamDigest}) and the stream's content length; returns its length.
     */
    int writeEndOfStream(byte[] dst, int offset, int digest, long contentLength) {
        FrameFormat.writeBlockHeader(dst, offset, salt, FrameFormat.END_OF_STREAM, 0, 0, 0, digest, contentLength,
                headerCrc);
        return FrameFormat.BLOCK_HEADER_LENGTH;
    }

    /** Frees every rung's native compressor. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < compressors.length; i++) {
            if (compressors[i] != null) {
                compressors[i].close();
                compressors[i] = null;
            }
        }
    }

    static void checkBlockLength(int length, int blockSize) {
        if (length < 1 || length > blockSize) {
            throw new IllegalArgumentException("block length must be in [1, " + blockSize + "], was " + length);
        }
    }

    private BlockCompressor compressor(int index) {
        BlockCompressor c = compressors[index];
        if (c == null) {
            c = Codecs.newCompressor(ladder.rung(index));
            compressors[index] = c;
        }
        return c;
    }
}
