package org.adaptivecompress.control;

import org.adaptivecompress.codec.Ladder;

/**
 * Always the same rung: the "fixed choice" every benchmark compares the adaptive controllers
 * against, and a way to pin a stream to one codec. A rung above the ladder's top is clamped.
 */
public final class FixedController implements LevelController {

    private final int rung;

    /** A controller that always answers {@code rung} (clamped to the ladder). */
    public FixedController(int rung) {
        if (rung < 0) {
            throw new IllegalArgumentException("rung must be at least 0, was " + rung);
        }
        this.rung = rung;
    }

    @Override
    public int initialRung(Ladder ladder) {
        return Math.min(rung, ladder.top());
    }

    @Override
    public Decision decide(Observation observation) {
        return Decision.of(Math.min(rung, observation.topRung()), Reason.FIXED);
    }

    /** True: a fixed rung is never moved by what the link does, so raw blocks may skip the FIFO. */
    @Override
    public boolean learnsFromDirectWrites() {
        return true;
    }

    @Override
    public String toString() {
        return "fixed:" + rung;
    }
}
