package org.adaptivecompress.benchmarks;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;

/**
 * A controller that moves every block to the next compressing rung, wrapping from the top to
 * rung 1: every zstd and xz rung of the ladder keeps a history, each missing the blocks of the
 * others. What the decoder benchmarks write their streams with.
 */
final class RungRotation implements LevelController {

    private int next;

    @Override
    public int initialRung(Ladder ladder) {
        return 1;
    }

    @Override
    public Decision decide(Observation observation) {
        next = next % observation.topRung() + 1;
        return Decision.of(next, Reason.FIXED);
    }
}
