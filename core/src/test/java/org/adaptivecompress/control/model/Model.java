package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;

import org.adaptivecompress.control.LinkSample;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.control.Observation;

/** The estimators a {@link ModelController} keeps, fed by a test, and the situations its policies see. */
final class Model {

    final Blocks blocks = new Blocks();
    final LinkEstimate link = new LinkEstimate();
    final RungModel rungs = new RungModel(Blocks.LADDER);
    final WriterCost writer = new WriterCost();
    final Forecast forecast = new Forecast(rungs, writer, Objective.time());

    /** Feeds one observation to every estimator, as the controller does. */
    Observation observe(Observation o) {
        link.observe(o);
        rungs.learn(o);
        writer.learn(o);
        return o;
    }

    /** Measures the link at {@code bytesPerSecond}: 20 metered spans of 10 ms at rung {@code rung}. */
    Model linkMeasuredAt(double bytesPerSecond, int rung) {
        for (int i = 0; i < 20; i++) {
            observe(blocks.after(10 * MS).at(rung, Blocks.span((long) (bytesPerSecond / 100), 10 * MS)));
        }
        return this;
    }

    /** The next block at {@code rung}, {@code nanos} after the last, with {@code sample}, and what the policies see. */
    Situation next(int rung, int home, long nanos, LinkSample sample) {
        return situation(blocks.after(nanos).at(rung, sample), home);
    }

    /** What the policies see after observation {@code o}, settled on {@code home}. */
    Situation situation(Observation o, int home) {
        return new Situation(observe(o), home, link, rungs, forecast);
    }

    /** The next block at {@code home} with a span confirming the link's rate. */
    Situation steady(int home, double bytesPerSecond) {
        return next(home, home, 10 * MS, Blocks.span((long) (bytesPerSecond / 100), 10 * MS));
    }
}
