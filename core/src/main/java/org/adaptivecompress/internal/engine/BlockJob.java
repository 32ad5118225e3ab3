package org.adaptivecompress.internal.engine;

import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * One block's trip through a parallel pipeline: {@link AdaptiveCompressor#planBlock} fills in
 * how to compress it when the block is dispatched, a {@link FrameEncoder} on a worker thread
 * fills in what compressing it produced, and {@link AdaptiveCompressor#recordBlock} reads both
 * back in stream order.
 *
 * <p>Mutable and meant to be reused, one per buffer slot, so the hot path allocates nothing.
 * Hand it between threads only through something that orders memory (a lock, a queue).
 */
public final class BlockJob {

    /** The rung the controller had chosen when the block was planned. */
    int plannedRung;
    /**
     * The rung the encoder tries: the planned one, or 0 while the engine skips incompressible
     * data (the encoder sets the planned one again if the block looks compressible).
     */
    int tryRung;
    /** True if the block was stored raw without trying, after incompressible blocks. */
    boolean skipped;
    /** Workers compressing side by side when the block was planned. */
    int workers = 1;
    /** The history lent to the block, or null if it is compressed to decode alone. */
    Histories.History history;
    /** The stream's last bytes to start {@link #history} anew with, or null to go on as it is. */
    byte[] prime;
    /**
     * The array of this job's last prime, filled again by the next one of the same length: a
     * codec copies a prime as it loads it, so the array is free once the job's block is encoded.
     */
    byte[] primeBuffer;
    /**
     * The header flag saying how much {@link #prime} holds: {@link FrameFormat#BLOCK_FLAG_PRIMED}
     * or {@link FrameFormat#BLOCK_FLAG_PRIMED_SHORT}.
     */
    int primeFlag;
    /** True if the block is a reset point: nothing from it on depends on the blocks before it. */
    boolean resetPoint;
    /** True if the block began {@link #history} anew rather than continuing its stream. */
    boolean startedHistory;
    /** True if the block's rung keeps a history but none was lent to it (see Observation#historyWithheld). */
    boolean historyWithheld;

    /** The stream's content bytes before the block, as its header carries them; set when it is planned. */
    long streamOffset;
    /** The block's length as planned; the encoder checks it is given that many bytes. */
    int plannedLength;
    int uncompressedLength;
    /** The CRC32C of the block's content, as its header carries it. */
    int contentCrc;
    /** The rung the frame was stored at: {@link #tryRung}, or 0 if the block did not shrink. */
    int usedRung;
    int storedLength;
    int frameLength;
    /** True if compression at {@link #tryRung} was tried and did not shrink the block enough. */
    boolean didNotShrink;
    /** True if the encoder left the raw payload in the block's source rather than after the header. */
    boolean payloadInSource;
    long compressNanos;
    /** CPU time the encoder's thread spent on a block a codec compressed (codec, copy, checksum); 0 for one stored raw untried. */
    long cpuNanos;

    /** An empty job, to be planned by {@link AdaptiveCompressor#planBlock}. */
    public BlockJob() {}

    /** The length of the frame the encoder wrote, header included. */
    public int frameLength() {
        return frameLength;
    }

    /**
     * True if the block was stored raw by {@link FrameEncoder#encodeLeavingRawPayload}, which
     * wrote only the header: the frame's payload is the block's source bytes, as they are.
     */
    public boolean payloadInSource() {
        return payloadInSource;
    }

    @Override
    public String toString() {
        return "BlockJob{planned rung " + plannedRung + (skipped ? " (skipped)" : "") + ", " + workers
                + " workers, block " + uncompressedLength + " -> frame " + frameLength + " at rung " + usedRung
                + (payloadInSource ? " (payload in source)" : "")
                + ", " + compressNanos + " ns}";
    }
}
