package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.stream.RateLimitedOutputStream;

/**
 * Writes the link benchmark's results: {@code link-results.csv} (every transfer),
 * {@code link-results.md} (each adaptive time over the best fixed time per cell, the
 * per-segment best where the link or the data changes, and the targets, met or not) and the
 * charts under {@code images/}.
 */
public final class LinkReport {

    /** The CSV's file name. */
    public static final String CSV = "link-results.csv";
    /** The markdown report's file name. */
    public static final String MARKDOWN = "link-results.md";

    private static final String ZSTD = "zstd --adapt";
    private static final List<String> ADAPTIVE = List.of("adoc", "default");

    private LinkReport() {}

    /** Writes the CSV, the markdown and the charts into {@code config.out()}. */
    public static void write(LinkConfig config, List<Measurement> results, List<PerSegmentBest> perSegmentBest,
            List<String> notes) throws IOException {
        Path dir = Files.createDirectories(config.out());
        writeCsv(dir.resolve(CSV), results);
        Map<Measurement.Cell, List<Measurement>> cells = byCell(results);
        List<String> charts = LinkCharts.write(dir.resolve("images"), config, cells);
        Map<Measurement.Cell, PerSegmentBest> bounds = new LinkedHashMap<>();
        perSegmentBest.forEach(b -> bounds.put(b.cell(), b));
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.addAll(measurementNotes(config, results, perSegmentBest));
        Files.writeString(dir.resolve(MARKDOWN), markdown(cells, bounds, allNotes, charts), StandardCharsets.UTF_8);
    }

    private static List<String> measurementNotes(LinkConfig config, List<Measurement> results,
            List<PerSegmentBest> perSegmentBest) {
        List<String> notes = new ArrayList<>();
        if (results.stream().anyMatch(m -> m.inputBytes() > config.maxBlock())) {
            notes.add(String.format(Locale.ROOT, "inputs longer than %s repeat their first %s; no codec's window"
                    + " reaches back that far", mib(config.maxBlock()), mib(config.maxBlock())));
        }
        List<String> scaled = results.stream().filter(Measurement::extrapolated)
                .map(m -> m.contender().name() + " in " + m.cell()).toList();
        if (!scaled.isEmpty()) {
            notes.add(String.format(Locale.ROOT, "timed on the first block and scaled to the input (the whole would"
                    + " take over %.0f s): %s", LinkBenchmark.EXTRAPOLATE_ABOVE_SECONDS, String.join("; ", scaled)));
        }
        for (PerSegmentBest b : perSegmentBest) {
            notes.add(String.format(Locale.ROOT, "per-segment best for %s: %s", b.cell(),
                    String.join(", ", b.choices())));
        }
        return notes;
    }

    private static void writeCsv(Path file, List<Measurement> results) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            w.println("scenario,data,rate,contender,input_bytes,wire_bytes,seconds,input_mb_per_s,verified,rung_changes,runs,"
                    + "extrapolated");
            for (Measurement m : results) {
                w.printf(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%.4f,%.2f,%s,%d,%d,%s%n", m.cell().scenario(),
                        m.cell().data(), m.cell().rate(), m.contender().name(), m.inputBytes(),
                        m.result().wireBytes(), m.result().seconds(), m.megabytesPerSecond(), m.result().verified(),
                        Math.max(0, m.result().rungs().size() - 1), m.runs(), m.extrapolated());
            }
        }
    }

    static Map<Measurement.Cell, List<Measurement>> byCell(List<Measurement> results) {
        Map<Measurement.Cell, List<Measurement>> cells = new LinkedHashMap<>();
        for (Measurement m : results) {
            cells.computeIfAbsent(m.cell(), k -> new ArrayList<>()).add(m);
        }
        return cells;
    }

    static Optional<Measurement> bestFixed(List<Measurement> cell) {
        return cell.stream().filter(m -> m.contender().fixed() && m.result().verified())
                .min(Comparator.comparingDouble(m -> m.result().seconds()));
    }

    static Optional<Measurement> named(List<Measurement> cell, String name) {
        return cell.stream().filter(m -> m.contender().name().equals(name)).findFirst();
    }

    private static String markdown(Map<Measurement.Cell, List<Measurement>> cells,
            Map<Measurement.Cell, PerSegmentBest> bounds, List<String> notes, List<String> charts) {
        StringBuilder md = new StringBuilder();
        md.append("| cell | input | best fixed | best fixed s | raw s | adoc s | adoc / best | default / best"
                + " | per-segment best / best | zstd --adapt s | default / zstd --adapt | verified |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : cells.entrySet()) {
            List<Measurement> cell = e.getValue();
            Optional<Measurement> best = bestFixed(cell);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    e.getKey(), mib(cell.get(0).inputBytes()), best.map(m -> m.contender().name()).orElse("-"),
                    best.map(m -> secs(m.result().seconds())).orElse("-"), seconds(cell, "raw"),
                    seconds(cell, "adoc"), ratio(cell, "adoc", best), ratio(cell, "default", best),
                    boundRatio(bounds.get(e.getKey()), best), seconds(cell, ZSTD), ratioTo(cell, "default", ZSTD),
                    cell.stream().allMatch(m -> m.result().verified()) ? "all" : "NO"));
        }
        md.append("\n'default' is LevelControllers.defaultController(), currently '")
                .append(LevelControllers.DEFAULT_NAME).append("'. The per-segment best is the fastest fixed rung"
                        + " on each stretch of data or link rate, timed alone and summed: what a sender that"
                        + " knew the future could reach.\n\n### Targets\n\n");
        md.append(targets(cells));
        md.append(target(cells, "per-segment best (perfect switching, up to the seams) <= 0.85x the best"
                + " single fixed choice", bounds::containsKey, cell -> {
                    PerSegmentBest b = bounds.get(cell.get(0).cell());
                    return b == null ? Double.NaN : b.seconds() / bestFixed(cell).map(m -> m.result().seconds())
                            .orElse(Double.NaN);
                }, 0.85, true));
        if (!notes.isEmpty()) {
            md.append("\n### Notes\n\n");
            notes.forEach(n -> md.append("- ").append(n).append('\n'));
        }
        if (!charts.isEmpty()) {
            md.append("\n### Charts\n\n");
            charts.forEach(c -> md.append("![").append(c).append("](images/").append(c).append(")\n\n"));
        }
        return md.toString();
    }

    private static String targets(Map<Measurement.Cell, List<Measurement>> cells) {
        StringBuilder md = new StringBuilder();
        for (String adaptive : ADAPTIVE) {
            md.append(target(cells, adaptive + " <= 1.05x the best fixed choice in every cell", c -> true,
                    cell -> ratioValue(cell, adaptive, bestFixed(cell)), 1.05, true));
            md.append(target(cells, adaptive + " <= 1.00x native zstd --adapt", c -> true,
                    cell -> ratioValue(cell, adaptive, named(cell, ZSTD)), 1.00, true));
            md.append(target(cells, adaptive + " <= 0.85x the best single fixed choice (step and changing data)",
                    c -> c.scenario().equals("step") || c.data().equals(LinkData.CHANGING.label()),
                    cell -> ratioValue(cell, adaptive, bestFixed(cell)), 0.85, true));
            md.append(target(cells, adaptive + " unthrottled >= 0.95x raw throughput (raw time / adaptive time)",
                    c -> c.rate().equals(LinkConfig.rateLabel(RateLimitedOutputStream.UNLIMITED)),
                    cell -> {
                        double r = ratioValue(cell, adaptive, named(cell, "raw"));
                        return Double.isNaN(r) ? r : 1 / r;
                    }, 0.95, false));
        }
        return md.toString();
    }

    private static String target(Map<Measurement.Cell, List<Measurement>> cells, String title,
            Predicate<Measurement.Cell> which, ToDoubleFunction<List<Measurement>> value,
            double bound, boolean atMost) {
        int met = 0;
        int counted = 0;
        double worst = atMost ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        Measurement.Cell worstCell = null;
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : cells.entrySet()) {
            if (!which.test(e.getKey())) {
                continue;
            }
            double v = value.applyAsDouble(e.getValue());
            if (Double.isNaN(v)) {
                continue;
            }
            counted++;
            if (atMost ? v <= bound : v >= bound) {
                met++;
            }
            if (atMost ? v > worst : v < worst) {
                worst = v;
                worstCell = e.getKey();
            }
        }
        if (counted == 0) {
            return "- " + title + ": not measured\n";
        }
        return String.format(Locale.ROOT, "- %s: **%s** (holds in %d of %d cells; worst %.2fx, %s)%n", title,
                met == counted ? "met" : "not met", met, counted, worst, worstCell);
    }

    private static String seconds(List<Measurement> cell, String name) {
        return named(cell, name).map(m -> secs(m.result().seconds())).orElse("-");
    }

    private static String ratio(List<Measurement> cell, String name, Optional<Measurement> reference) {
        double r = ratioValue(cell, name, reference);
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }

    private static String boundRatio(PerSegmentBest bound, Optional<Measurement> best) {
        if (bound == null || best.isEmpty() || Double.isNaN(bound.seconds())) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2fx", bound.seconds() / best.get().result().seconds());
    }

    private static String ratioTo(List<Measurement> cell, String name, String reference) {
        return ratio(cell, name, named(cell, reference));
    }

    static double ratioValue(List<Measurement> cell, String name, Optional<Measurement> reference) {
        Optional<Measurement> m = named(cell, name);
        if (m.isEmpty() || reference.isEmpty()) {
            return Double.NaN;
        }
        return m.get().result().seconds() / reference.get().result().seconds();
    }

    private static String secs(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.2f MiB", bytes / 1048576.0);
    }
}
