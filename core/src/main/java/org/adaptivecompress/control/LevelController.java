package org.adaptivecompress.control;

/**
 * Decides which rung of the ladder compresses the next block, from what the pipeline observed
 * while the last block was compressed and queued.
 *
 * <p>A controller holds the state of one stream: create one per stream (that is why options take
 * a {@code Supplier<LevelController>}). It is called from the compressing thread only.
 */
public interface LevelController {

    /** The rung of the first block; {@code top} is the ladder's highest rung index. */
    int initialRung(int top);

    /**
     * The rung for the next block, in {@code [0, observation.topRung()]}.
     *
     * <p>Called once per block, after the block has entered the FIFO.
     */
    int nextRung(Observation observation);

    /**
     * Whether the engine should store the next block raw without trying to compress it, as it
     * does after blocks that did not shrink (backing off: 1, 2, 4 ... blocks as retries keep
     * failing). Asked after {@link #nextRung} for each block the backoff would skip.
     *
     * <p>The default, {@code true}, spares the CPU that compressing random or pre-compressed data
     * wastes. A controller that knows trying costs no time, because the link and not the
     * compressor bounds the stream, answers {@code false}: every block is then tried at its rung,
     * and the first block that compresses again after incompressible data is compressed, instead
     * of going out raw until the backoff's next retry.
     */
    default boolean skipAfterIncompressible() {
        return true;
    }
}
