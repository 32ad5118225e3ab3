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
}
