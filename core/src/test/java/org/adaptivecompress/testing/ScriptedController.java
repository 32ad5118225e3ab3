package org.adaptivecompress.testing;

import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;

/** A controller that cycles through a fixed sequence of rungs and records what it observed. */
public final class ScriptedController implements LevelController {

    private final int[] rungs;
    private final List<Observation> observations = new ArrayList<>();
    private int next;
    private int withheldFrom;
    private int withheldTo;
    private int planned;
    private boolean priming = true;
    private int[] blockLengths = {};
    private int lengthsAnswered;

    /** Answers {@code rungs[0]}, {@code rungs[1]}, ... and starts over. */
    public ScriptedController(int... rungs) {
        this.rungs = rungs.clone();
    }

    /** A controller that moves to the next rung after every block, wrapping at the top. */
    public static ScriptedController everyRung(int rungCount) {
        int[] all = new int[rungCount];
        for (int i = 0; i < rungCount; i++) {
            all[i] = i;
        }
        return new ScriptedController(all);
    }

    @Override
    public int initialRung(Ladder ladder) {
        int top = ladder.top();
        return Math.min(rungs[next++ % rungs.length], top);
    }

    @Override
    public Decision decide(Observation observation) {
        observations.add(observation);
        return Decision.of(Math.min(rungs[next++ % rungs.length], observation.topRung()), Reason.FIXED);
    }

    /**
     * Makes {@link #lendsHistories()} answer false for the blocks in {@code [from, to)}, counted
     * from 0 in the order they are planned, and true for the others.
     */
    public ScriptedController withholdingHistories(int from, int to) {
        withheldFrom = from;
        withheldTo = to;
        return this;
    }

    @Override
    public boolean lendsHistories() {
        int block = planned++;
        return block < withheldFrom || block >= withheldTo;
    }

    /** Makes {@link #primesHistories()} answer false: every history starts unprimed or goes on from its own window. */
    public ScriptedController notPriming() {
        priming = false;
        return this;
    }

    @Override
    public boolean primesHistories() {
        return priming;
    }

    /**
     * Makes {@link #blockLength} answer {@code lengths[0]}, {@code lengths[1]}, ... and start
     * over; 0 stands for the block size, -1 for the longest block. Without it, the block size.
     */
    public ScriptedController withBlockLengths(int... lengths) {
        blockLengths = lengths.clone();
        return this;
    }

    @Override
    public int blockLength(int blockSize, int maxBlockSize) {
        if (blockLengths.length == 0) {
            return blockSize;
        }
        int length = blockLengths[lengthsAnswered++ % blockLengths.length];
        return length == 0 ? blockSize : length < 0 ? maxBlockSize : length;
    }

    /** Every observation so far. */
    public List<Observation> observations() {
        return observations;
    }
}
