package org.adaptivecompress.benchmarks.link;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Rates;

/** The markdown tables of the report: scenarios by rates, and the step and busy-core cells. */
final class ReportTables {

    private ReportTables() {}

    /**
     * Rows are scenarios, columns rates; each cell is the default's time over the best fixed
     * rung's (named) and over zstd --adapt's; the last rows are the geometric means per rate.
     */
    static String rateTable(List<Measurement> measurements, List<Long> rates) {
        Map<Measurement.Cell, List<Measurement>> cells = Targets.byCell(measurements);
        Map<String, String> scenarios = new LinkedHashMap<>();
        cells.keySet().stream().filter(c -> c.kind() == Measurement.Kind.RATE)
                .forEach(c -> scenarios.putIfAbsent(c.scenario(), c.description()));
        List<Measurement.Cell> columns = new ArrayList<>();
        StringBuilder md = new StringBuilder("| scenario | data |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (long rate : rates) {
            md.append(' ').append(Rates.label(rate)).append(" |");
            rule.append("---:|");
        }
        md.append('\n').append(rule).append('\n');
        List<List<Double>> versusBest = new ArrayList<>();
        List<List<Double>> versusZstd = new ArrayList<>();
        rates.forEach(r -> {
            versusBest.add(new ArrayList<>());
            versusZstd.add(new ArrayList<>());
        });
        for (Map.Entry<String, String> s : scenarios.entrySet()) {
            md.append("| ").append(s.getKey()).append(" | ").append(s.getValue()).append(" |");
            for (int i = 0; i < rates.size(); i++) {
                List<Measurement> cell = cells.get(Measurement.Cell.rate(measurements.get(0).cell().set(), s.getKey(),
                        s.getValue(), rates.get(i)));
                md.append(' ').append(cell == null ? "-" : cellText(cell)).append(" |");
                if (cell != null) {
                    collect(Targets.versusBestFixed(cell), versusBest.get(i));
                    collect(versusZstd(cell), versusZstd.get(i));
                }
            }
            md.append('\n');
        }
        md.append("| geometric mean | default / best fixed |");
        versusBest.forEach(v -> md.append(' ').append(mean(v)).append(" |"));
        md.append("\n| geometric mean | default / zstd --adapt |");
        versusZstd.forEach(v -> md.append(' ').append(mean(v)).append(" |"));
        return md.append('\n').toString();
    }

    /** {@code 0.98 (zstd:3) / 0.91}: default over the best fixed rung (named), over zstd --adapt. */
    static String cellText(List<Measurement> cell) {
        Optional<Measurement> best = Targets.bestFixed(cell);
        String name = best.map(m -> rung(m.contender())).orElse("none finished");
        return Targets.versusBestFixed(cell).format() + " (" + name + ") / " + versusZstd(cell).format();
    }

    /** The step and busy-core cells, with the per-segment best and the recoveries; empty if neither ran. */
    static String specialTable(List<Measurement> measurements, List<PerSegmentBest> bests,
            List<StepCell.StepRecovery> recoveries) {
        StringBuilder rows = new StringBuilder();
        StringBuilder md = new StringBuilder("| cell | data | best fixed | best fixed s | default s | default / best"
                + " | default / zstd --adapt | per-segment best / best fixed | default's blocks to recover |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---|\n");
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : Targets.byCell(measurements).entrySet()) {
            Measurement.Cell c = e.getKey();
            if (c.kind() != Measurement.Kind.STEP && c.kind() != Measurement.Kind.BUSY) {
                continue;
            }
            List<Measurement> cell = e.getValue();
            Optional<Measurement> best = Targets.bestFixed(cell);
            String bound = bests.stream().filter(b -> b.cell().equals(c)).findFirst()
                    .map(b -> best.map(m -> String.format(Locale.ROOT, "%.2f (%s)", b.seconds() / m.run().seconds(),
                            String.join(", ", b.choices().stream().map(ReportTables::rung).toList()))).orElse("-"))
                    .orElse("-");
            String recovered = c.kind() != Measurement.Kind.STEP ? "-" : String.join("; ", recoveries.stream()
                    .filter(r -> r.contender().equals(Contender.DEFAULT))
                    .map(r -> "step " + (r.step() + 1) + ": " + Targets.blocks(r.blocks())).toList());
            rows.append(String.format(Locale.ROOT, "| %s %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", c.kind().label(),
                    c.rateLabel(), c.scenario(), best.map(m -> rung(m.contender())).orElse("-"),
                    best.map(m -> seconds(m.run())).orElse("-"),
                    Targets.named(cell, Contender.DEFAULT).map(m -> seconds(m.run())).orElse("-"),
                    Targets.versusBestFixed(cell).format(), versusZstd(cell).format(), bound, recovered));
        }
        return rows.length() == 0 ? "" : md.append(rows).toString();
    }

    private static Ratio versusZstd(List<Measurement> cell) {
        return Ratio.of(Targets.named(cell, Contender.DEFAULT), Targets.named(cell, Contender.ZSTD_ADAPT));
    }

    private static void collect(Ratio r, List<Double> into) {
        if (r.bound() != Ratio.Bound.UNKNOWN) {
            into.add(r.value());
        }
    }

    private static String mean(List<Double> values) {
        return values.isEmpty() ? "-" : String.format(Locale.ROOT, "%.3f", Targets.geometricMean(values));
    }

    private static String seconds(Measurement.Run run) {
        return run.aborted() ? String.format(Locale.ROOT, "> %.2f", run.seconds())
                : run.finished() ? String.format(Locale.ROOT, "%.3f", run.seconds()) : "failed";
    }

    /** {@code zstd:3} for {@code fixed:3 zstd:3}; other labels as they are. */
    static String rung(String label) {
        return label.startsWith("fixed:") && label.contains(" ") ? label.substring(label.indexOf(' ') + 1) : label;
    }

    private static String rung(Contender c) {
        return rung(c.label());
    }
}
