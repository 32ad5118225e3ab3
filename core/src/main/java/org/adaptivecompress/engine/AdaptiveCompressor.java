package org.adaptivecompress.engine;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.adaptivecompress.codec.BlockCompressor;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.format.FrameFormat;

/**
 * Turns blocks into frames at the rung a {@link LevelController} picks, one decision per block.
 *
 * <p>This is the engine every integration drives: {@link #writeStreamHeader}, then for each block
 * {@link #compressBlock}, {@link #update} with the FIFO depth when the frame is ready, and queuing
 * the frame; finally {@link #writeEndOfStream}. It owns one compressor per rung (created on first use and
 * reused, so the hot path allocates nothing) and the statistics.
 *
 * <p>A block that does not shrink by at least 1/32 is stored raw and the controller is told;
 * after such a block the engine stores the next blocks raw without trying, doubling that run
 * (up to {@value #MAX_INCOMPRESSIBLE_SKIP} blocks) each time a retry fails too, so random or
 * pre-compressed data costs almost nothing.
 *
 * <p>Not thread-safe, except {@link #statistics()}, which any thread may call.
 */
public final class AdaptiveCompressor implements AutoCloseable {

    /** Blocks stored raw without trying, at most, after repeated incompressible blocks. */
    static final int MAX_INCOMPRESSIBLE_SKIP = 64;

    private static final SecureRandom SALTS = new SecureRandom();

    private final Ladder ladder;
    private final LevelController controller;
    private final RungChangeListener listener;
    private final int blockSize;
    private final BlockCompressor[] compressors;
    private final CRC32C crc = new CRC32C();
    private final CRC32C headerCrc = new CRC32C();
    private final int salt;

    private int rung;
    private int skipRemaining;
    private int skipRun = 1;

    private int lastRung;
    private int lastUncompressed;
    private int lastStored;
    private boolean lastIncompressible;
    private long lastCompressNanos;

    private final Object statsLock = new Object();
    private final long[] blocksPerRung;
    private final long[] bytesInPerRung;
    private final long[] bytesOutPerRung;
    private long incompressibleBlocks;
    private long rungChanges;
    private long lastFifoBytes;

    private boolean closed;

    /** An engine with these options and a random stream salt. */
    public AdaptiveCompressor(CompressionOptions options) {
        this(options, SALTS.nextInt());
    }

    /**
     * An engine with a given stream salt, for reproducible output (test vectors). Streams
     * written with the same salt cannot be told apart by a reader that resynchronises in the
     * middle of one, so use the random-salt constructor otherwise.
     */
    public AdaptiveCompressor(CompressionOptions options, int salt) {
        Objects.requireNonNull(options, "options is null");
        this.ladder = options.ladder();
        this.listener = options.listener();
        this.blockSize = options.blockSize();
        this.controller = Objects.requireNonNull(options.controllerFactory().get(), "controller factory returned null");
        this.salt = salt;
        this.compressors = new BlockCompressor[ladder.size()];
        this.blocksPerRung = new long[ladder.size()];
        this.bytesInPerRung = new long[ladder.size()];
        this.bytesOutPerRung = new long[ladder.size()];
        this.rung = checkRung(controller.initialRung(ladder.top()));
    }

    /** The ladder rung indexes refer to. */
    public Ladder ladder() {
        return ladder;
    }

    /** Bytes of input per block. */
    public int blockSize() {
        return blockSize;
    }

    /** The rung the controller has chosen for the next block. */
    public int currentRung() {
        return rung;
    }

    /** The most bytes one frame of a block of {@code blockLength} bytes can take. */
    public static int maxFrameLength(int blockLength) {
        return FrameFormat.maxFrameLength(blockLength);
    }

    /** Writes the stream header; returns its length, {@link FrameFormat#STREAM_HEADER_LENGTH}. */
    public int writeStreamHeader(byte[] dst, int offset) {
        return FrameFormat.writeStreamHeader(dst, offset, salt);
    }

    /** Writes the end-of-stream marker; returns its length, {@link FrameFormat#BLOCK_HEADER_LENGTH}. */
    public int writeEndOfStream(byte[] dst, int offset) {
        FrameFormat.writeBlockHeader(dst, offset, salt, FrameFormat.END_OF_STREAM, 0, 0, 0, 0, headerCrc);
        return FrameFormat.BLOCK_HEADER_LENGTH;
    }

    /**
     * Compresses one block at the current rung into one frame (header and payload) at
     * {@code dst[dstOffset]}, which must have room for {@link #maxFrameLength(int)
     * maxFrameLength(length)} bytes.
     *
     * @param length 1 to {@link #blockSize()} bytes
     * @return the frame's length
     */
    public int compressBlock(byte[] src, int offset, int length, byte[] dst, int dstOffset) {
        ensureOpen();
        if (length < 1 || length > blockSize) {
            throw new IllegalArgumentException("block length must be in [1, " + blockSize + "], was " + length);
        }
        int payloadOffset = dstOffset + FrameFormat.BLOCK_HEADER_LENGTH;
        int tryRung = skipRemaining > 0 ? 0 : rung;
        long start = System.nanoTime();
        int stored = BlockCompressor.DOES_NOT_FIT;
        if (tryRung > 0) {
            // Worth keeping only if it saves at least 1/32 of the block.
            int worthKeeping = length - (length >>> 5) - 1;
            stored = compressor(tryRung).compress(src, offset, length, dst, payloadOffset, worthKeeping);
        }
        lastIncompressible = skipRemaining > 0 || (tryRung > 0 && stored == BlockCompressor.DOES_NOT_FIT);
        Rung used;
        if (stored == BlockCompressor.DOES_NOT_FIT) {
            System.arraycopy(src, offset, dst, payloadOffset, length);
            stored = length;
            used = Rung.RAW;
            lastRung = 0;
        } else {
            used = ladder.rung(tryRung);
            lastRung = tryRung;
        }
        lastCompressNanos = System.nanoTime() - start;
        lastUncompressed = length;
        lastStored = stored;
        updateSkip(tryRung);

        crc.reset();
        crc.update(src, offset, length);
        FrameFormat.writeBlockHeader(dst, dstOffset, salt, used.codec().id(), used.level(), length, stored,
                (int) crc.getValue(), headerCrc);
        int frameLength = FrameFormat.BLOCK_HEADER_LENGTH + stored;
        synchronized (statsLock) {
            blocksPerRung[lastRung]++;
            bytesInPerRung[lastRung] += length;
            bytesOutPerRung[lastRung] += frameLength;
            if (lastIncompressible) {
                incompressibleBlocks++;
            }
        }
        return frameLength;
    }

    private void updateSkip(int tryRung) {
        if (skipRemaining > 0) {
            skipRemaining--;
        } else if (tryRung > 0) {
            if (lastIncompressible) {
                skipRemaining = skipRun;
                skipRun = Math.min(skipRun * 2, MAX_INCOMPRESSIBLE_SKIP);
            } else {
                skipRun = 1;
            }
        }
    }

    /**
     * Tells the controller what the FIFO did while the last block was compressed, and moves to
     * the rung it picks for the next block. Call it once the last block's frame is ready, with
     * the FIFO depth at that moment (before or after queuing the frame is the caller's choice:
     * pass the depth without the frame).
     *
     * <p>The controller sees the FIFO as AdOC would have with packets instead of whole frames:
     * see {@link Observation.Builder#fifoAroundFrame}.
     *
     * @param fifoBytesAtBlockStart bytes queued when the last block started being compressed
     * @param fifoBytesWhenFrameReady bytes queued when its frame was ready, not counting the frame
     * @param drainedBytes bytes the sender has written to the sink since the stream started
     */
    public void update(long fifoBytesAtBlockStart, long fifoBytesWhenFrameReady, long drainedBytes) {
        Observation observation = Observation.builder()
                .rung(rung)
                .topRung(ladder.top())
                .fifoAroundFrame(fifoBytesAtBlockStart, fifoBytesWhenFrameReady,
                        FrameFormat.BLOCK_HEADER_LENGTH + lastStored)
                .block(lastUncompressed, lastStored, lastIncompressible)
                .compressNanos(lastCompressNanos)
                .drainedBytes(drainedBytes)
                .nanoTime(System.nanoTime())
                .build();
        int next = checkRung(controller.nextRung(observation));
        int previous = rung;
        rung = next;
        synchronized (statsLock) {
            lastFifoBytes = observation.fifoBytes();
            if (next != previous) {
                rungChanges++;
            }
        }
        if (next != previous) {
            listener.rungChanged(previous, next, ladder);
        }
    }

    /** A consistent snapshot of the statistics; safe from any thread. */
    public CompressionStatistics statistics() {
        synchronized (statsLock) {
            return new CompressionStatistics(ladder, rung, blocksPerRung, bytesInPerRung, bytesOutPerRung,
                    incompressibleBlocks, rungChanges, lastFifoBytes);
        }
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

    private BlockCompressor compressor(int index) {
        BlockCompressor c = compressors[index];
        if (c == null) {
            c = ladder.rung(index).newCompressor();
            compressors[index] = c;
        }
        return c;
    }

    private int checkRung(int r) {
        if (r < 0 || r > ladder.top()) {
            throw new IllegalStateException(
                    "controller " + controller + " chose rung " + r + " outside the ladder [0, " + ladder.top() + "]");
        }
        return r;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("compressor is closed");
        }
    }
}
