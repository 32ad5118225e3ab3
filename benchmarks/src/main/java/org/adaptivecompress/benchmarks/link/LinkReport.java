package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.adaptivecompress.benchmarks.link.net.QdiscCounters;
import org.adaptivecompress.control.LevelControllers;

/**
 * Writes the link benchmark's results: {@code link-results.csv} (every measurement),
 * {@code link-results.md} (where it ran, the scenarios-by-rates table of the default against
 * the best fixed rung and zstd --adapt, the step and busy-core cells, the targets, met or not,
 * and the calibration) and the charts under {@code images/}.
 */
public final class LinkReport {

    /** The CSV's file name. */
    public static final String CSV = "link-results.csv";
    /** The markdown report's file name. */
    public static final String MARKDOWN = "link-results.md";

    /**
     * Everything a run measured.
     *
     * @param measurements every cell's measurements
     * @param bests the per-segment best of the step cell
     * @param recoveries the adaptive contenders' recoveries after each step
     * @param counters the shaping qdisc's counters per rate, on the kernel's link
     * @param notes lines for the report's notes
     */
    public record Results(List<Measurement> measurements, List<PerSegmentBest> bests,
            List<StepCell.StepRecovery> recoveries, Map<Long, QdiscCounters> counters, List<String> notes) {

        /** These results with the link's counters. */
        public Results withCounters(Map<Long, QdiscCounters> c) {
            return new Results(measurements, bests, recoveries, c, notes);
        }
    }

    private LinkReport() {}

    /** Writes the CSV, the markdown and the charts into {@code config.out()}. */
    static void write(LinkConfig config, Environment environment, Results results) throws IOException {
        Path dir = Files.createDirectories(config.out());
        writeCsv(dir.resolve(CSV), results.measurements());
        List<String> charts = LinkCharts.write(dir.resolve("images"), config.rates(), results.measurements());
        Files.writeString(dir.resolve(MARKDOWN), markdown(config, environment, results, charts), StandardCharsets.UTF_8);
    }

    static void writeCsv(Path file, List<Measurement> measurements) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            w.println("set,cell,scenario,rate,contender,input_bytes,seconds,wire_bytes,verified,aborted,runs,"
                    + "in_flight_bytes,blocks_per_rung");
            for (Measurement m : measurements) {
                Measurement.Run r = m.run();
                w.printf(Locale.ROOT, "%s,%s,%s,%s,%s,%d,%.4f,%d,%s,%s,%d,%d,%s%n", csvField(m.cell().set()),
                        csvField(m.cell().kind().label()), csvField(m.cell().scenario()),
                        csvField(m.cell().rateLabel()), csvField(m.contender().label()),
                        m.inputBytes(), r.seconds(), r.wireBytes(), r.verified(), r.aborted(), m.runs(), r.inFlightBytes(),
                        Arrays.stream(r.blocks()).mapToObj(Long::toString).collect(Collectors.joining(";")));
            }
        }
    }

    /** A CSV field as RFC 4180 writes it: quoted, with quotes doubled, where it holds a comma, a quote or a line break. */
    static String csvField(String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    static String markdown(LinkConfig config, Environment environment, Results results, List<String> charts) {
        StringBuilder md = new StringBuilder("# Link benchmark: ").append(config.set().label()).append(" set\n\n");
        environment.lines().forEach(l -> md.append("- ").append(l).append('\n'));
        md.append("\nEach cell: the default controller's time over the best fixed rung's (named), then over"
                + " `zstd --adapt`'s; below 1 the default is faster. `<x` and `>x` are bounds where a contender was"
                + " cut off at its deadline. 'default' is LevelControllers.defaultController(), currently '")
                .append(LevelControllers.DEFAULT_NAME).append("'.\n\n");
        md.append(ReportTables.rateTable(results.measurements(), config.rates()));
        String special = ReportTables.specialTable(results.measurements(), results.bests(), results.recoveries());
        if (!special.isEmpty()) {
            md.append("\n### Rate step and busy core\n\n").append(special);
            md.append("\nThe per-segment best is each stretch between steps timed alone with every fixed rung, the"
                    + " fastest summed: what a sender that knew the future could reach. A recovery counts the 128 KiB"
                    + " blocks verified after a step until a window of ").append(Recovery.WINDOW)
                    .append(" of them went at ").append(Math.round(100 * Recovery.SHARE))
                    .append(" % of the new stretch's best fixed goodput (see Recovery).\n");
        }
        String objectives = ObjectiveTables.markdown(results.measurements());
        if (!objectives.isEmpty()) {
            md.append("\n### Objectives other than time\n\n").append(objectives);
        }
        md.append("\n### Targets (").append(config.set().label()).append(" set)\n\n");
        Targets.evaluate(results.measurements(), results.recoveries())
                .forEach(t -> md.append(t.markdown()).append('\n'));
        md.append("\n### Calibration\n\n");
        md.append(Calibration.markdown(results.measurements(), results.counters()));
        if (!results.notes().isEmpty()) {
            md.append("\n### Notes\n\n");
            results.notes().forEach(n -> md.append("- ").append(n).append('\n'));
        }
        if (!charts.isEmpty()) {
            md.append("\n### Charts\n\n");
            charts.forEach(c -> md.append("![").append(c).append("](images/").append(c).append(")\n\n"));
        }
        return md.toString();
    }
}
