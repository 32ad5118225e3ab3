package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;

/**
 * Over a link measured, the rung the forecast ranks best under the objective (for time, the one
 * that delivers the most), switched to only for a gain of at least {@value #HYSTERESIS_PERCENT} %
 * (noise in the figures must not flap the rung), at once if the home rung no longer fits the objective,
 * or a mix of it and a neighbour where the mix is forecast to deliver {@value #MIX_GAIN_PERCENT} %
 * more than either alone and, tried, measures better than the rung alone ({@link MixTrial}).
 */
final class SwitchPolicy implements Policy {

    /** Predicted gain a switch must bring: above the noise of a few blocks' figures. */
    static final int HYSTERESIS_PERCENT = 5;
    /** Predicted gain a mix must bring over the better rung alone: a mix costs a switch of codec per block. */
    static final int MIX_GAIN_PERCENT = 5;

    private final MixTrial trial = new MixTrial();
    private double mixCredit;
    private int settled;

    @Override
    public Decision decide(Situation s) {
        trial.observe(s.observation());
        double rate = s.link().rate();
        Forecast f = s.forecast();
        int best = f.best(rate, s.top());
        double gainOverHome = f.admissible(s.home(), rate) ? f.score(best, rate) / f.score(s.home(), rate)
                : Double.POSITIVE_INFINITY;
        settled = best != s.home() && gainOverHome * 100 >= 100 + HYSTERESIS_PERCENT ? best : s.home();
        Forecast.Mix mix = bestMix(f, settled, rate, s.top());
        if (mix == null) {
            trial.notMixing(settled);
        } else if (!trial.allows(settled, mix.lower(), s.observation().nanoTime())) {
            mix = null;
        }
        if (mix != null) {
            mixCredit += mix.share();
            boolean upper = mixCredit >= 1;
            if (upper) {
                mixCredit -= 1;
            }
            return new Decision(upper ? mix.upper() : mix.lower(), Reason.MIX, rate, mix.goodput());
        }
        mixCredit = 0;
        return s.decision(settled, best == settled ? Reason.BEST : Reason.KEPT, rate);
    }

    /** The rung the last decision settled on: the single best one, or the one a mix is built around. */
    int settled() {
        return settled;
    }

    /** The mix of {@code rung} with a neighbour that beats both alone by {@link #MIX_GAIN_PERCENT}, or null. */
    private static Forecast.Mix bestMix(Forecast f, int rung, double rate, int top) {
        Forecast.Mix best = null;
        for (int lower = Math.max(0, rung - 1); lower <= Math.min(rung, top - 1); lower++) {
            Forecast.Mix m = f.mix(lower, lower + 1, rate);
            double alone = Math.max(f.goodput(lower, rate), f.goodput(lower + 1, rate));
            if (m != null && m.goodput() * 100 >= (100 + MIX_GAIN_PERCENT) * alone
                    && (best == null || m.goodput() > best.goodput())) {
                best = m;
            }
        }
        return best;
    }
}
