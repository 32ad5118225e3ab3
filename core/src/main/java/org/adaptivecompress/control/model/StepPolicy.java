package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;

/**
 * How the controller answers the link changing under it, without the hysteresis of ordinary
 * switching:
 * <ul>
 *   <li>the link dropped sharply: the best rung for the slower link at once, since every block
 *       queued meanwhile crosses at the slow rate (the queued frames themselves are compressed
 *       again, see {@link ModelController#recompressRung});
 *   <li>the link sped up sharply, or took everything the stream produced
 *       ({@link LinkEstimate.State#AT_LEAST}):
 *       with each new bound on its rate, the best rung for a link {@value #OPTIMISM} times the
 *       bound if it is faster than the current one, or else, once the link took more than any
 *       buffer could hide, the next faster rung; between bounds the rung is kept. Once the
 *       stream produces more than the link takes, the link shows its rate and the forecast
 *       decides.
 * </ul>
 */
final class StepPolicy implements Policy {

    /**
     * How much faster than its lower bound a link that outran the stream is taken to be: enough
     * to reach past a rung twice as fast as the current one in a step, so the search does not
     * creep, where a wrong step costs only until the link pushes back.
     */
    static final double OPTIMISM = 4;

    @Override
    public Decision decide(Situation s) {
        double rate = s.link().rate();
        if (s.link().droppedNow()) {
            return s.decision(s.forecast().best(rate, s.top()), Reason.LINK_DROPPED, rate);
        }
        if (s.link().state() != LinkEstimate.State.AT_LEAST || !s.forecast().valuesRate()) {
            return null; // an objective indifferent to the rate need not search for it
        }
        int home = s.home();
        if (!s.link().boundedNow()) {
            return s.decision(home, Reason.KEPT, rate); // the next window will say whether the rung keeps up
        }
        Forecast f = s.forecast();
        int target = Math.min(home, f.best(OPTIMISM * rate, s.top()));
        if (target == home && s.link().outranStream()) {
            target = fasterThan(f, home);
        }
        Reason why = s.link().roseNow() ? Reason.LINK_ROSE : target < home ? Reason.LINK_FASTER : Reason.BEST;
        return s.decision(target, why, rate);
    }

    /** The highest rung below {@code home} whose writer is {@link SwitchPolicy#HYSTERESIS_PERCENT} % faster; {@code home} if none. */
    private static int fasterThan(Forecast f, int home) {
        for (int r = home - 1; r >= 0; r--) {
            if (f.writerSpeed(r) * 100 >= f.writerSpeed(home) * (100 + SwitchPolicy.HYSTERESIS_PERCENT)) {
                return r;
            }
        }
        return home;
    }
}
