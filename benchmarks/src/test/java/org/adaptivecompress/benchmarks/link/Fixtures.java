package org.adaptivecompress.benchmarks.link;

import java.util.List;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Rates;

/** Hand-made cells and measurements for the report's tests. */
final class Fixtures {

    private Fixtures() {}

    static Measurement.Cell cell(String scenario, String rate) {
        return Measurement.Cell.rate("held-out", scenario, scenario + " data", Rates.parse(rate));
    }

    static Measurement.Run run(double seconds) {
        return new Measurement.Run(seconds, 1000, true, false, -1, List.of(), new long[0], new double[0],
                new double[0], -1);
    }

    static Measurement finished(Measurement.Cell cell, String contender, double seconds) {
        return new Measurement(cell, Contender.parse(contender), 1 << 20, run(seconds), 1);
    }

    static Measurement aborted(Measurement.Cell cell, String contender, double deadline) {
        return new Measurement(cell, Contender.parse(contender), 1 << 20, Measurement.Run.aborted(deadline, 10), 1);
    }

    /** A cell where the plain copy, two fixed rungs, the default and zstd --adapt took these times. */
    static List<Measurement> cellOf(Measurement.Cell cell, double plain, double raw, double zstd3, double dflt,
            double zstdAdapt) {
        return List.of(finished(cell, "plain", plain), finished(cell, "fixed:0", raw), finished(cell, "fixed:3", zstd3),
                finished(cell, "default", dflt), finished(cell, "zstd-adapt", zstdAdapt));
    }
}
