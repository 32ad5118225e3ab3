package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;

/**
 * Every {@value #INTERVAL} blocks, one block at a neighbour of the settled rung whose figures on
 * this data are old or only predicted, if it is predicted to deliver at least
 * {@value #WORTH_PERCENT} % of the settled rung: predictions from other data can be wrong in
 * both directions, and a rung predicted a little worse is never measured otherwise. Up and down
 * in turn. At most one block in {@value #INTERVAL} at most a fifth slower: under 1 % of time.
 */
final class ProbePolicy implements Policy {

    /** Blocks between probes. */
    static final int INTERVAL = 32;
    /** A neighbour predicted to deliver less than this share of the settled rung is not worth a block. */
    static final int WORTH_PERCENT = 80;

    private int sinceProbe;
    private boolean upNext = true;

    @Override
    public Decision decide(Situation s) {
        if (++sinceProbe < INTERVAL) {
            return null;
        }
        double rate = s.link().rate();
        for (int i = 0; i < 2; i++) {
            int candidate = s.home() + (upNext ? 1 : -1);
            upNext = !upNext;
            if (candidate < 0 || candidate > s.top() || s.rungs().fresh(candidate)) {
                continue;
            }
            // Scored as if admissible: a rung's figures on this data, which a probe measures,
            // are what decide whether it fits a CPU budget or a rate floor.
            Forecast f = s.forecast();
            if (f.score(candidate, rate) * 100 >= WORTH_PERCENT * f.score(s.home(), rate)) {
                sinceProbe = 0;
                return s.decision(candidate, Reason.PROBE, rate);
            }
        }
        return null;
    }
}
