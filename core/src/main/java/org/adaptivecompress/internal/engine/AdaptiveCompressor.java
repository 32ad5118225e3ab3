package org.adaptivecompress.internal.engine;

import java.security.SecureRandom;
import java.util.Objects;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.engine.BlockJob;
import org.adaptivecompress.internal.engine.FrameEncoder;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.StreamDigest;
import org.adaptivecompress.metrics.StatisticsGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns blocks into frames at the rung a {@link LevelController} picks, one decision per block.
 *
 * <p>This is the engine every integration drives: {@link #writeStreamHeader}, then for each block
 * {@link #compressBlock}, {@link #update} with what the pipeline measured when the frame is ready, and queuing
 * the frame; finally {@link #writeEndOfStream}. It owns one compressor per rung (created on first use and
 * reused, so the hot path allocates no buffers: one small {@code Observation} per block, for
 * the controller) and the statistics.
 *
 * <p>A parallel pipeline splits {@link #compressBlock} in three, so blocks can be compressed on
 * other threads while the decisions stay here and in stream order: {@link #planBlock} when a
 * block is dispatched, {@link FrameEncoder#encode} on a worker with its own
 * {@linkplain #newFrameEncoder() encoder}, and {@link #recordBlock} once the block's turn in the
 * stream comes, followed by {@link #update} as usual.
 *
 * <p>A pipeline that holds its frames until they are sent may compress them again at a higher
 * rung when the controller asks ({@link #recompressRung}, {@link #recompressFrame},
 * {@link #recompressLastBlock}): what it queued for a fast link is then not sent at that
 * link's ratio after the link drops.
 *
 * <p>A block that does not shrink by at least 1/32 is stored raw (or, in a history, left in
 * its history's stream, which then goes on) and the controller is told;
 * after such a block the engine stores the next blocks raw without trying, doubling that run
 * (up to {@value #MAX_INCOMPRESSIBLE_SKIP} blocks) each time a retry fails too, so random or
 * pre-compressed data costs almost nothing, unless the controller says trying costs no time
 * ({@link LevelController#skipAfterIncompressible()}) or the block is lent a history: a
 * history that missed those blocks would lose its window's view of them.
 *
 * <p>Not thread-safe, except {@link #statistics()} and {@link #newFrameEncoder()}, which any
 * thread may call.
 */
public final class AdaptiveCompressor implements AutoCloseable {

    /** Blocks stored raw without trying, at most, after repeated incompressible blocks. */
    static final int MAX_INCOMPRESSIBLE_SKIP = 64;

    /** Debug: each change of rung, with the decision's reason. */
    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveCompressor.class);
    private static final SecureRandom SALTS = new SecureRandom();

    private final Ladder ladder;
    private final LevelController controller;
    private final DecisionListener listener;
    private final int blockSize;
    private final int maxBlockLength;
    private final int salt;
    /** This thread's encoder: {@link #compressBlock} and the end marker. */
    private final FrameEncoder encoder;
    /** The stream's histories; null if its blocks decode alone. */
    private Histories histories;
    /** Bytes a history may match back, and content bytes between reset points (0: none). */
    private final int historyWindow;
    private final long resetInterval;
    /** {@link #compressBlock}'s job, reused. */
    private final BlockJob job = new BlockJob();
    /** Over the blocks recorded since the stream began, for its end marker. */
    private final StreamDigest digest = new StreamDigest();
    /** Content bytes of the blocks planned since the stream header: the next block's stream offset. */
    private long plannedOffset;
    /** Content bytes of the blocks recorded since the stream header: the end marker's stream offset. */
    private long recordedOffset;
    /** The job of blocks compressed again, made the first time: most streams never do it. */
    private BlockJob recompressJob;
    /** What decoding a queued frame needs, made the first time {@link #recompressFrame} runs. */
    private BlockHeader recompressHeader;
    private BlockDecoder recompressDecoder;
    private byte[] recompressBlock;

    private int rung;
    private int skipRemaining;
    private int skipRun = 1;

    /**
     * What {@link #update} reports as the block's rung: the rung the controller had chosen for
     * the last recorded block, which in a parallel pipeline may be older than {@link #rung}; the
     * current rung if no block was recorded since the last update.
     */
    private int lastPlannedRung;
    private int lastUncompressed;
    private int lastStored;
    /** The stream offset of the last block recorded, which its frame keeps when compressed again. */
    private long lastStreamOffset;
    private boolean lastIncompressible;
    private boolean lastSkipped;
    /** Observations made so far: the number of the next. */
    private long blocksObserved;
    private boolean lastStartedHistory;
    private boolean lastHistoryWithheld;
    private long lastCompressNanos;
    private long lastCpuNanos;
    /** See {@link #recompressibleRungOfLastBlock()}. */
    private int lastRecompressibleRung = -1;

    private final Object statsLock = new Object();
    private final long[] blocksStored;
    private final long[] bytesInStored;
    private final long[] bytesOutStored;
    private final long[] blocksReplaced;
    private final long[] bytesInReplaced;
    private final long[] bytesOutReplaced;
    private final long[] decisionsPerReason = new long[Reason.values().length];
    private long incompressibleBlocks;
    private long cpuNanos;
    private long rungChanges;
    private long lastFifoBytes;
    /** What the histories held when the last block was recorded; written under {@link #statsLock}. */
    private long historyNativeBytes;
    private long historyHeapBytes;
    /** The link's rate the last decision that had one assumed, NaN before. */
    private double lastLinkBytesPerSecond = Double.NaN;
    /** Why the controller chose the next block's rung; null before its first decision. */
    private volatile Reason lastReason;
    /** Workers side by side for the last recorded block; written under {@link #statsLock}. */
    private int lastWorkers = 1;
    private final long startNanos = System.nanoTime();
    /** The group this engine counts in while open, or null. */
    private final StatisticsGroup.Membership membership;

    private boolean closed;

    /** An engine with these options and a random stream salt. */
    public AdaptiveCompressor(AdaptiveCompressionOptions options) {
        this(options, SALTS.nextInt());
    }

    /**
     * An engine with a given stream salt, for reproducible output (test vectors). Streams
     * written with the same salt cannot be told apart by a reader that resynchronises in the
     * middle of one, so use the random-salt constructor otherwise.
     */
    public AdaptiveCompressor(AdaptiveCompressionOptions options, int salt) {
        Objects.requireNonNull(options, "options is null");
        this.ladder = options.ladder();
        this.listener = options.listener();
        this.blockSize = options.blockSize();
        this.maxBlockLength = options.maxBlockSize();
        this.controller = Objects.requireNonNull(options.controllerFactory().get(), "controller factory returned null");
        controller.objective(options.objective());
        this.salt = salt;
        this.encoder = new FrameEncoder(ladder, maxBlockLength, salt);
        this.historyWindow = options.streamWindow();
        this.resetInterval = options.resetInterval();
        this.histories = options.history() ? new Histories(ladder, historyWindow, resetInterval) : null;
        this.blocksStored = new long[ladder.size()];
        this.bytesInStored = new long[ladder.size()];
        this.bytesOutStored = new long[ladder.size()];
        this.blocksReplaced = new long[ladder.size()];
        this.bytesInReplaced = new long[ladder.size()];
        this.bytesOutReplaced = new long[ladder.size()];
        this.rung = checkRung(controller.initialRung(ladder));
        this.lastPlannedRung = rung;
        this.membership = options.statisticsGroup() != null ? options.statisticsGroup().join(this::statistics) : null;
    }

    /** The ladder rung indexes refer to. */
    public Ladder ladder() {
        return ladder;
    }

    /** The block size, {@link AdaptiveCompressionOptions#blockSize()}: the shortest {@link #nextBlockLength()} answers. */
    public int blockSize() {
        return blockSize;
    }

    /** The longest block, {@link AdaptiveCompressionOptions#maxBlockSize()}: buffers of this many bytes hold any block. */
    public int maxBlockLength() {
        return maxBlockLength;
    }

    /**
     * How many bytes the next block is to take, from {@link AdaptiveCompressionOptions#blockSize()}
     * to {@link #maxBlockLength()}: the controller's answer to {@link LevelController#blockLength},
     * asked anew at each call, so call it once per block, after the last block's
     * {@linkplain #update update}. A flush or the end of the input may cut a block shorter.
     */
    public int nextBlockLength() {
        int length = controller.blockLength(blockSize, maxBlockLength);
        return Math.max(blockSize, Math.min(maxBlockLength, length));
    }

    /**
     * Whether a pipeline may write a raw frame to the sink on the compressing thread when its
     * FIFO is empty, instead of queuing it: the controller's answer to
     * {@link LevelController#learnsFromDirectWrites()}.
     */
    public boolean learnsFromDirectWrites() {
        return controller.learnsFromDirectWrites();
    }

    /**
     * Whether the controller chose the next block's rung before the link showed its rate
     * ({@link Reason#STARTUP}): a pipeline should not queue more blocks compressed at that guess
     * than its sink takes.
     */
    public boolean awaitsTheLink() {
        return lastReason == Reason.STARTUP;
    }

    /** The rung the controller has chosen for the next block. */
    public int currentRung() {
        return rung;
    }

    /**
     * Whether the next block will be stored raw without a codec being tried: the rung chosen is
     * raw, or the engine is skipping data it found incompressible. A writer that knows this can
     * size the block so that its frame, header and payload, fills a whole block.
     */
    public boolean nextBlockStoredRaw() {
        // Whether the controller lends the block a history is asked once, when it is planned.
        return rung == 0 || skipsNext(histories != null);
    }

    /**
     * Whether the backoff after incompressible blocks stores the next block raw without trying:
     * not once the controller says trying costs no time, nor when the block is lent its rung's
     * history, which is to see every byte of the stream, as the native tools' streams do.
     */
    private boolean skipsNext(boolean lendsHistory) {
        return skipRemaining > 0 && controller.skipAfterIncompressible()
                && !(lendsHistory && ladder.rung(rung).codec().hasHistory());
    }

    /** The most bytes one frame of a block of {@code blockLength} bytes can take. */
    public static int maxFrameLength(int blockLength) {
        return FrameFormat.maxFrameLength(blockLength);
    }

    /**
     * Writes the stream header; returns its length, {@link FrameFormat#STREAM_HEADER_LENGTH}.
     * The blocks recorded after it are the ones the next end marker's digest covers.
     */
    public int writeStreamHeader(byte[] dst, int offset) {
        digest.reset();
        plannedOffset = 0;
        recordedOffset = 0;
        return FrameFormat.writeStreamHeader(dst, offset, salt,
                histories != null ? Integer.numberOfTrailingZeros(historyWindow) : 0);
    }

    /**
     * Makes the next blocks those of a new stream on this engine, once the last one's end marker
     * is written and no block is being compressed: its histories start afresh, as a reader's do
     * at every stream header. The controller, its estimates and the statistics carry on, since
     * the link and the data do. Write the new stream's header next.
     */
    public void beginNextStream() {
        if (histories != null) {
            histories.close();
            histories = new Histories(ladder, historyWindow, resetInterval);
        }
    }

    /**
     * Writes the end-of-stream marker, with the digest of the blocks {@linkplain #recordBlock
     * recorded} since the stream began (see {@link StreamDigest}); returns its length,
     * {@link FrameFormat#BLOCK_HEADER_LENGTH}.
     */
    public int writeEndOfStream(byte[] dst, int offset) {
        if (plannedOffset != recordedOffset) {
            throw new IllegalStateException("the end marker must follow every planned block's record: "
                    + plannedOffset + " bytes planned, " + recordedOffset + " recorded");
        }
        return encoder.writeEndOfStream(dst, offset, digest.value(), recordedOffset);
    }

    /**
     * Compresses one block at the current rung into one frame (header and payload) at
     * {@code dst[dstOffset]}, which must have room for {@link #maxFrameLength(int)
     * maxFrameLength(length)} bytes.
     *
     * @param length 1 to {@link #maxBlockLength()} bytes
     * @return the frame's length
     */
    public int compressBlock(byte[] src, int offset, int length, byte[] dst, int dstOffset) {
        return compress(src, offset, length, dst, dstOffset, true);
    }

    /**
     * Like {@link #compressBlock}, but a block stored raw is not copied: only its
     * {@value FrameFormat#BLOCK_HEADER_LENGTH}-byte header is written to {@code dst}, and the
     * caller sends {@code src[offset, offset + length)} as the frame's payload right after it.
     * A frame always carries at least one payload byte, so a return value of exactly the header
     * length says the payload was left in {@code src}.
     *
     * @return the bytes written to {@code dst}: the whole frame, or only its header
     */
    public int compressBlockLeavingRawPayload(byte[] src, int offset, int length, byte[] dst, int dstOffset) {
        return compress(src, offset, length, dst, dstOffset, false);
    }

    private int compress(byte[] src, int offset, int length, byte[] dst, int dstOffset, boolean copyRawPayload) {
        ensureOpen();
        FrameEncoder.checkBlockLength(length, maxBlockLength);
        planBlock(job, 1, length, src, offset);
        int written = copyRawPayload ? encoder.encode(job, src, offset, length, dst, dstOffset)
                : encoder.encodeLeavingRawPayload(job, src, offset, length, dst, dstOffset);
        recordBlock(job);
        return written;
    }

    /**
     * An encoder for another thread: same ladder, longest block and salt, its own compressors.
     * The caller owns it and closes it; closing this engine does not. Safe from any thread.
     */
    public FrameEncoder newFrameEncoder() {
        return new FrameEncoder(ladder, maxBlockLength, salt);
    }

    /**
     * Decides how the next block in stream order is compressed, when it is dispatched to a
     * worker: at the controller's current rung, or raw without trying while the engine skips
     * incompressible data. Call it once per block, in stream order, then have a
     * {@link FrameEncoder} encode the block with {@code job}, then {@link #recordBlock}.
     *
     * <p>An engine whose options turn {@linkplain AdaptiveCompressionOptions#history() histories} on
     * needs each block's bytes as it is planned: use {@link #planBlock(BlockJob, int, int, byte[],
     * int)}.
     *
     * @param job the block's job, reused between blocks once recorded
     * @param workers how many workers compress blocks side by side, from 1; the controller sees
     *     the block's compression time divided by it (see {@link Observation#compressNanos()})
     * @param length the block's length, 1 to {@link #maxBlockLength()}: it sets where the next block starts
     * @throws IllegalStateException if the engine writes histories
     */
    public void planBlock(BlockJob job, int workers, int length) {
        if (histories != null) {
            throw new IllegalStateException("an engine with histories plans each block with its bytes:"
                    + " planBlock(job, workers, length, src, offset)");
        }
        plan(job, workers, length, false);
    }

    /**
     * {@link #planBlock(BlockJob, int, int)} for any engine, given the block's bytes
     * {@code src[offset, offset + length)} (the ones the encoder will be given): with histories
     * on, the engine keeps the stream's last bytes, which a history that starts anew is primed
     * with.
     */
    public void planBlock(BlockJob job, int workers, int length, byte[] src, int offset) {
        boolean lend = histories != null && controller.lendsHistories();
        plan(job, workers, length, lend);
        if (histories != null) {
            histories.plan(job, src, offset, length, lend, controller.primesHistories());
        }
    }

    /** @param lendsHistory whether the block is lent its rung's history if the rung keeps one */
    private void plan(BlockJob job, int workers, int length, boolean lendsHistory) {
        ensureOpen();
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        FrameEncoder.checkBlockLength(length, maxBlockLength);
        job.plannedLength = length;
        job.streamOffset = plannedOffset;
        plannedOffset += length;
        job.plannedRung = rung;
        job.workers = workers;
        if (skipRemaining > 0 && !skipsNext(lendsHistory)) {
            // Retry now and start the backoff afresh.
            skipRemaining = 0;
            skipRun = 1;
        }
        job.skipped = skipRemaining > 0;
        if (job.skipped) {
            skipRemaining--;
            job.tryRung = 0;
        } else {
            job.tryRung = rung;
        }
        job.history = null;
        job.prime = null;
        job.resetPoint = false;
    }

    /**
     * Takes in a block a {@link FrameEncoder} has encoded as {@link #planBlock} planned it: the
     * statistics, the incompressible-data backoff, and what the next {@link #update} tells the
     * controller. Call it in stream order, when the block's frame is about to be queued.
     */
    public void recordBlock(BlockJob job) {
        ensureOpen();
        boolean withHistory = job.history != null;
        if (job.history != null) {
            histories.giveBack(job.history);
            job.history = null;
        }
        digest.add(job.uncompressedLength, job.contentCrc);
        recordedOffset += job.uncompressedLength;
        lastStreamOffset = job.streamOffset;
        lastIncompressible = job.skipped || job.didNotShrink;
        lastSkipped = job.skipped;
        if (!job.skipped && job.tryRung > 0) {
            if (job.didNotShrink) {
                skipRemaining = skipRun;
                skipRun = Math.min(skipRun * 2, MAX_INCOMPRESSIBLE_SKIP);
            } else {
                skipRun = 1;
            }
        }
        lastPlannedRung = job.plannedRung;
        lastUncompressed = job.uncompressedLength;
        lastStored = job.storedLength;
        lastStartedHistory = job.startedHistory && !lastIncompressible;
        lastHistoryWithheld = job.historyWithheld;
        lastCompressNanos = job.compressNanos / job.workers;
        lastCpuNanos = job.cpuNanos / job.workers;
        lastRecompressibleRung = lastIncompressible || withHistory ? -1 : job.usedRung;
        long historyNative = histories != null ? histories.nativeBytes() : 0;
        long historyHeap = histories != null ? histories.heapBytes() : 0;
        synchronized (statsLock) {
            historyNativeBytes = historyNative;
            historyHeapBytes = historyHeap;
            lastWorkers = job.workers;
            blocksStored[job.usedRung]++;
            bytesInStored[job.usedRung] += job.uncompressedLength;
            bytesOutStored[job.usedRung] += job.frameLength;
            cpuNanos += job.cpuNanos;
            if (lastIncompressible) {
                incompressibleBlocks++;
            }
        }
    }

    /**
     * Tells the controller what the pipeline did while the last block was compressed, and moves
     * to the rung it picks for the next block, telling the listener. Call it once the last
     * block's frame is ready.
     *
     * <p>The controller sees the FIFO as AdOC would have with packets instead of whole frames:
     * see {@link Observation.Builder#fifoAroundFrame}.
     */
    public void update(PipelineSample sample) {
        Objects.requireNonNull(sample, "sample is null");
        Observation observation = Observation.builder()
                .blockNumber(blocksObserved++)
                .rung(lastPlannedRung)
                .topRung(ladder.top())
                .fifoAroundFrame(sample.fifoBytesAtBlockStart(), sample.fifoBytesWhenFrameReady(),
                        FrameFormat.BLOCK_HEADER_LENGTH + lastStored)
                .block(lastUncompressed, lastStored, lastIncompressible)
                .skipped(lastSkipped)
                .compressNanos(lastCompressNanos)
                .cpuNanos(lastCpuNanos)
                .workers(lastWorkers)
                .drainedBytes(sample.drainedBytes())
                .nanoTime(System.nanoTime())
                .writerWaitNanos(sample.writerWaitNanos())
                .link(sample.link())
                .historyStarted(lastStartedHistory)
                .historyWithheld(lastHistoryWithheld)
                .build();
        Decision decision = controller.decide(observation);
        int next = checkRung(decision.rung());
        int previous = rung;
        lastPlannedRung = next;
        lastReason = decision.reason();
        synchronized (statsLock) { // statistics() reads the rung from other threads
            rung = next;
            lastFifoBytes = observation.fifoBytes();
            decisionsPerReason[decision.reason().ordinal()]++;
            if (!Double.isNaN(decision.linkBytesPerSecond())) {
                lastLinkBytesPerSecond = decision.linkBytesPerSecond();
            }
            if (next != previous) {
                rungChanges++;
            }
        }
        if (next != previous && LOG.isDebugEnabled()) {
            LOG.debug("block {}: {} -> {}: {}", observation.blockNumber(), ladder.rung(previous), ladder.rung(next),
                    decision);
        }
        listener.decided(observation, decision);
    }

    /**
     * The nanoseconds the last recorded block spent in its codec, divided by the workers that
     * compressed side by side when it was planned (see {@link Observation#compressNanos()}):
     * next to nothing for a block stored raw without trying a codec.
     */
    public long lastCompressNanos() {
        return lastCompressNanos;
    }

    /**
     * The rung the last recorded block's frame was stored at, or -1 if that frame is never to
     * be compressed again: the block did not shrink or was stored raw without trying (it would
     * not shrink at a higher rung either), or its frame belongs to a history, which later
     * frames build on.
     */
    public int recompressibleRungOfLastBlock() {
        return lastRecompressibleRung;
    }

    /**
     * The rung at which a queued frame stored at {@code storedRung} is to be compressed again
     * before it is sent (see {@link LevelController#recompressRung}); {@code storedRung} to leave
     * it, always in a stream with histories.
     *
     * @throws IllegalStateException if the controller answers a rung below {@code storedRung} or
     *     outside the ladder
     */
    public int recompressRung(int storedRung) {
        if (histories != null) {
            return storedRung;
        }
        int r = checkRung(controller.recompressRung(storedRung));
        if (r < storedRung) {
            throw new IllegalStateException("controller " + controller + " would recompress a frame at rung "
                    + storedRung + " down to rung " + r);
        }
        return r;
    }

    /**
     * Compresses the block in the frame {@code src[offset, offset + length)}, which this engine
     * wrote at {@code storedRung} and which is not yet sent, again at {@code toRung}, into a new
     * frame at {@code dst[dstOffset]} (room for {@link #maxFrameLength(int)
     * maxFrameLength(maxBlockLength())} bytes), and moves the block in the statistics to its new
     * rung. The new frame decodes to the same bytes and takes the old one's place in the
     * stream: blocks of a stream without histories decode alone. Returns -1, recording
     * nothing, if the new frame would not be smaller. Either way the controller is told what
     * compressing the block took ({@link LevelController#recompressed}).
     *
     * @throws FrameFormatException if the frame does not decode to its checksum, which only a
     *     caller that damaged it can cause
     * @throws IllegalStateException if this engine keeps histories
     */
    public int recompressFrame(byte[] src, int offset, int length, int storedRung, int toRung, byte[] dst,
            int dstOffset) throws FrameFormatException {
        checkRecompressible(storedRung, toRung);
        if (recompressDecoder == null) {
            recompressHeader = new BlockHeader();
            recompressDecoder = new BlockDecoder();
            recompressBlock = new byte[maxBlockLength];
        }
        BlockHeader header = recompressHeader.parse(src, offset, salt, maxBlockLength, 0);
        int uncompressed = header.uncompressedLength();
        recompressDecoder.decode(header, src, offset + FrameFormat.BLOCK_HEADER_LENGTH, recompressBlock, 0, 0);
        return reencode(recompressBlock, 0, uncompressed, header.streamOffset(), storedRung, length, toRung, dst,
                dstOffset);
    }

    /**
     * Like {@link #recompressFrame}, for the block this engine compressed last, from its bytes
     * {@code src[offset, offset + length)} (those it was compressed from), before its frame is
     * queued: at the rung the controller now wants for it (see {@link #recompressRung}). Its
     * rung is {@link #recompressibleRungOfLastBlock()}, which then answers {@code toRung}.
     *
     * @throws IllegalStateException if this engine keeps histories, or the last block is not to
     *     be compressed again
     */
    public int recompressLastBlock(byte[] src, int offset, int length, int toRung, byte[] dst, int dstOffset) {
        int storedRung = lastRecompressibleRung;
        if (storedRung < 0 || length != lastUncompressed) {
            throw new IllegalStateException("the last block (" + lastUncompressed + " bytes) is not to be"
                    + " compressed again, or is not these " + length + " bytes");
        }
        checkRecompressible(storedRung, toRung);
        int n = reencode(src, offset, length, lastStreamOffset, storedRung, FrameFormat.BLOCK_HEADER_LENGTH + lastStored,
                toRung, dst, dstOffset);
        if (n > 0) {
            lastRecompressibleRung = toRung;
        }
        return n;
    }

    private void checkRecompressible(int storedRung, int toRung) {
        ensureOpen();
        if (histories != null) {
            throw new IllegalStateException("frames of a stream with histories are never compressed again");
        }
        checkRung(storedRung);
        checkRung(toRung);
        if (recompressJob == null) {
            recompressJob = new BlockJob();
        }
    }

    /** Encodes a block stored in a frame of {@code storedLength} bytes again at {@code toRung}, if smaller. */
    private int reencode(byte[] block, int offset, int length, long streamOffset, int storedRung, int storedLength,
            int toRung, byte[] dst, int dstOffset) {
        BlockJob j = recompressJob;
        j.plannedLength = length;
        j.streamOffset = streamOffset;
        j.plannedRung = toRung;
        j.tryRung = toRung;
        j.skipped = false;
        j.workers = 1;
        j.history = null;
        j.prime = null;
        int n = encoder.encode(j, block, offset, length, dst, dstOffset);
        controller.recompressed(toRung, length, j.compressNanos);
        synchronized (statsLock) {
            cpuNanos += j.cpuNanos;
        }
        if (n >= storedLength || j.usedRung != toRung) {
            return -1;
        }
        synchronized (statsLock) {
            blocksReplaced[storedRung]++;
            bytesInReplaced[storedRung] += length;
            bytesOutReplaced[storedRung] += storedLength;
            blocksStored[toRung]++;
            bytesInStored[toRung] += length;
            bytesOutStored[toRung] += n;
        }
        return n;
    }

    /** A consistent snapshot of the statistics; safe from any thread. */
    public CompressionStatistics statistics() {
        synchronized (statsLock) {
            return CompressionStatistics.builder(ladder, startNanos).currentRung(rung)
                    .stored(blocksStored, bytesInStored, bytesOutStored)
                    .replaced(blocksReplaced, bytesInReplaced, bytesOutReplaced)
                    .decisionsPerReason(decisionsPerReason).incompressibleBlocks(incompressibleBlocks).cpuNanos(cpuNanos)
                    .rungChanges(rungChanges).fifoBytes(lastFifoBytes).workers(lastWorkers)
                    .linkBytesPerSecond(lastLinkBytesPerSecond)
                    .historyMemory(historyNativeBytes, historyHeapBytes).build();
        }
    }

    /**
     * Frees every rung's native compressor of this engine's own encoder, and the stream's
     * histories, lent to blocks or not: close it once no {@link FrameEncoder} is encoding one of
     * its blocks. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (membership != null) {
            membership.leave();
        }
        encoder.close();
        if (recompressDecoder != null) {
            recompressDecoder.close();
        }
        if (histories != null) {
            histories.close();
        }
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
