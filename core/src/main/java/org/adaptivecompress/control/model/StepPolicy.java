package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;

/**
 * How the controller answers the link changing under it, without the hysteresis of ordinary
 * switching:
 * <ul>
 *   <li>the link dropped sharply: the best rung for the slower link at once, since every block
 *       queued meanwhile crosses at the slow rate (the queued frames themselves are compressed
 *       again, see {@link ModelController#recompressRung}); and the same when it sped up sharply;
 *   <li>the link took everything the stream produced ({@link LinkEstimate.State#AT_LEAST}):
 *       with each window that bounds its rate, a faster rung, to find out how fast the link
 *       is: the best rung for a link {@value #OPTIMISM} times the bound, and at least one rung
 *       down; between windows the rung is kept. Once the stream produces more than the link
 *       takes, the link shows its rate and the forecast decides.
 * </ul>
 */
final class StepPolicy implements Policy {

    /**
     * How much faster than its lower bound a link that outran the stream is taken to be: a jump
     * over several rungs when the bound is far below what they need, one rung otherwise.
     */
    static final double OPTIMISM = 4;

    @Override
    public Decision decide(Situation s) {
        double rate = s.link().rate();
        if (s.link().droppedNow() || s.link().roseNow()) {
            Reason why = s.link().droppedNow() ? Reason.LINK_DROPPED : Reason.LINK_ROSE;
            return s.decision(s.forecast().best(rate, s.top()), why, rate);
        }
        if (s.link().state() != LinkEstimate.State.AT_LEAST) {
            return null;
        }
        int home = s.home();
        if (!s.link().boundedNow()) {
            return s.decision(home, Reason.KEPT, rate); // the next window will say whether the rung keeps up
        }
        Forecast f = s.forecast();
        int faster = home;
        for (int r = home - 1; r >= 0 && faster == home; r--) {
            if (f.writerSpeed(r) * 100 >= f.writerSpeed(home) * (100 + SwitchPolicy.HYSTERESIS_PERCENT)) {
                faster = r;
            }
        }
        int target = Math.min(faster, f.best(OPTIMISM * rate, s.top()));
        return s.decision(target, target < home ? Reason.LINK_FASTER : Reason.BEST, rate);
    }
}
