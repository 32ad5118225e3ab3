package org.adaptivecompress.control.model;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;

/**
 * Until the link has shown its rate, holds the start-up rung: the smallest-output rung whose
 * prior speed keeps up with a 2.5 Gbit/s link's worth of input ({@value #START_SPEED_MBPS} MB/s).
 * A block too small on a slow link costs that link's time, one too slow on a fast link costs
 * only the codec's, and a fast link shows itself within a few megabytes.
 */
final class StartupPolicy implements Policy {

    /** Input MB/s the start-up rung compresses the reference data at, at least. */
    static final double START_SPEED_MBPS = 300;

    /** The start-up rung of {@code ladder}: zstd:3 on the default ladder. */
    static int startRung(Ladder ladder) {
        int start = 0;
        for (int r = 1; r < ladder.size(); r++) {
            double[] prior = RungPriors.prior(ladder.rung(r));
            if (prior[0] >= START_SPEED_MBPS * 1e6 && prior[1] >= RungPriors.prior(ladder.rung(start))[1]) {
                start = r;
            }
        }
        return start;
    }

    @Override
    public Decision decide(Situation s) {
        if (s.link().state() != LinkEstimate.State.UNKNOWN || !s.forecast().valuesRate()) {
            return null; // an objective indifferent to the link need not wait for it
        }
        return s.decision(s.home(), Reason.STARTUP, Double.NaN);
    }
}
