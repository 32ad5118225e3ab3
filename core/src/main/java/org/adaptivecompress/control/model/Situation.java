package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;

/**
 * What the policies decide from: the block just observed, the rung the controller has settled
 * on ({@code home}), and the estimates, already updated with the observation.
 */
final class Situation {

    private final Observation observation;
    private final int home;
    private final LinkEstimate link;
    private final RungModel rungs;
    private final Forecast forecast;

    Situation(Observation observation, int home, LinkEstimate link, RungModel rungs, Forecast forecast) {
        this.observation = observation;
        this.home = home;
        this.link = link;
        this.rungs = rungs;
        this.forecast = forecast;
    }

    Observation observation() {
        return observation;
    }

    /** The rung the controller has settled on. */
    int home() {
        return home;
    }

    LinkEstimate link() {
        return link;
    }

    RungModel rungs() {
        return rungs;
    }

    Forecast forecast() {
        return forecast;
    }

    /** The ladder's top rung. */
    int top() {
        return observation.topRung();
    }

    /** A decision for {@code rung} over a link of {@code linkRate}, with the rung's forecast goodput. */
    Decision decision(int rung, Reason reason, double linkRate) {
        double goodput = Double.isNaN(linkRate) ? Double.NaN : forecast.goodput(rung, linkRate);
        return new Decision(rung, reason, linkRate, goodput);
    }
}
