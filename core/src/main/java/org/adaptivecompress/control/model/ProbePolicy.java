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
            double home = s.forecast().goodput(s.home(), rate);
            if (s.forecast().goodput(candidate, rate) * 100 >= WORTH_PERCENT * home) {
                sinceProbe = 0;
                return s.decision(candidate, Reason.PROBE, rate);
            }
        }
        return null;
    }
}
