package org.adaptivecompress.control;

import org.adaptivecompress.codec.Ladder;

/**
 * Decides which rung of the ladder compresses the next block, from what the pipeline observed
 * while the last block was compressed and queued.
 *
 * <p>A controller holds the state of one stream: create one per stream (that is why options take
 * a {@code Supplier<LevelController>}). It is called from the compressing thread only.
 */
public interface LevelController {

    /**
     * What to optimise ({@link Objective}); called once, before {@link #initialRung}. The
     * default accepts only {@link Objective#time()}: a controller that does not model the link
     * and the rungs (AdOC's rule, a fixed rung) cannot weigh CPU or money.
     *
     * @throws IllegalArgumentException if the controller cannot pursue {@code objective}
     */
    default void objective(Objective objective) {
        if (objective.kind() != Objective.Kind.TIME) {
            throw new IllegalArgumentException("objective " + objective + " needs the model controller; " + this
                    + " optimises time only");
        }
    }

    /** The rung of the first block of a stream over {@code ladder}; called once, before any {@link #decide}. */
    int initialRung(Ladder ladder);

    /**
     * The rung for the next block, in {@code [0, observation.topRung()]}, and why.
     *
     * <p>Called once per block, after the block has entered the FIFO.
     */
    Decision decide(Observation observation);

    /**
     * Whether the engine should store the next block raw without trying to compress it, as it
     * does after blocks that did not shrink (backing off: 1, 2, 4 ... blocks as retries keep
     * failing). Asked when each block the backoff would skip is planned.
     *
     * <p>The default, {@code true}, spares the CPU that compressing random or pre-compressed data
     * wastes. A controller that knows trying costs no time, because the link and not the
     * compressor bounds the stream, answers {@code false}: every block is then tried at its rung,
     * and the first block that compresses again after incompressible data is compressed, instead
     * of going out raw until the backoff's next retry. A block lent its rung's history is tried
     * whatever this says: the history's window is to see every byte of the stream.
     */
    default boolean skipAfterIncompressible() {
        return true;
    }

    /**
     * How many bytes the next block takes, from {@code blockSize} to {@code maxBlockSize} (see
     * {@link org.adaptivecompress.engine.AdaptiveCompressionOptions.Builder#maxBlockSize(int)});
     * asked once before the first block and after each {@link #decide}, by pipelines that cut a
     * stream into blocks: the writer fills its next block to the length last answered (with
     * workers, several blocks may be filled between two decisions). A longer block finds
     * matches further back and costs fewer headers; a shorter one lets the controller decide
     * more often. The default, {@code blockSize}, suits a controller that does not know whether
     * the link or the writer bounds the stream.
     */
    default int blockLength(int blockSize, int maxBlockSize) {
        return blockSize;
    }

    /**
     * Whether the stream may write a raw block to the sink on the writing thread when its FIFO
     * is empty, instead of queuing it for the sender. It saves a hand-off between threads and a
     * copy per block, which on a link faster than every codec is a large share of raw's speed
     * on two cores. But the FIFO then stays empty however slow the link, so a controller that
     * reads the link from the FIFO alone (AdOC's rule) must answer {@code false}, the default;
     * one that answers {@code true} reads the link from {@link Observation#link()}, which times
     * such writes as it times the sender's.
     */
    default boolean learnsFromDirectWrites() {
        return false;
    }

    /**
     * Whether, in a stream that keeps histories (see
     * {@link org.adaptivecompress.engine.AdaptiveCompressionOptions#history()}), the next block planned
     * at a rung with a history is lent it. Asked once per block, when it is planned. A block not
     * lent one is compressed to decode alone, and while histories are withheld the stream does
     * not keep its last bytes either (a copy of every byte), so a history lent again goes on
     * from its own window until the stream has refilled one. The default, {@code true}, lends
     * whenever the rung keeps one; a controller that withholds them sees
     * {@link Observation#historyWithheld()} on such blocks.
     */
    default boolean lendsHistories() {
        return true;
    }

    /**
     * Whether a history lent to the next block (see {@link #lendsHistories()}) that starts its
     * stream anew, or has missed over a megabyte of the stream, first loads the stream's last
     * bytes. Loading costs about what compressing those bytes at the rung costs (up to 2 MiB:
     * docs/PERFORMANCE.md, "What starting a history costs"); a history not primed starts from
     * nothing, or goes on from its own window. Asked when a block is planned. The default,
     * {@code true}, primes whenever the format allows, for the ratio: what a file at a fixed
     * rung wants.
     */
    default boolean primesHistories() {
        return true;
    }

    /**
     * The rung at which a frame compressed at {@code storedRung} is to be compressed again
     * before it is sent: a frame still queued in the FIFO that the sender has not begun, or the
     * block just compressed, whose frame is not yet queued. {@code storedRung} leaves it as it
     * is, the default. Asked after {@link #decide}, by a pipeline with one compressing thread
     * and no histories ({@link org.adaptivecompress.stream.AdaptiveOutputStream}).
     *
     * <p>What the FIFO holds when the link slows crosses it at the slower rate: a queue of LZ4
     * frames compressed for a fast link is then worth compressing again at the slow link's
     * rung, in time the writer would spend waiting for room. A controller that reads the link
     * from the FIFO's depth alone (AdOC's rule) must leave frames as they are, since the
     * depth would then shrink without the link draining it.
     */
    default int recompressRung(int storedRung) {
        return storedRung;
    }

    /**
     * Tells the controller that a frame was compressed again at {@code rung} (see
     * {@link #recompressRung}): its block of {@code uncompressedLength} bytes took
     * {@code compressNanos}. A measurement of the rung on the data the stream queued, which a
     * controller may weigh before it sends the next queued frame there. Ignored by default.
     */
    default void recompressed(int rung, int uncompressedLength, long compressNanos) {
    }
}
