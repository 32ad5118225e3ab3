package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.agent.RungTimeline;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Draws the link benchmark's PNG charts (headless). */
final class LinkCharts {

    private static final int WIDTH = 1100;
    private static final int HEIGHT = 600;

    private LinkCharts() {}

    /** Writes the charts into {@code dir}; returns their file names. */
    static List<String> write(Path dir, List<Long> rates, List<Measurement> measurements) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<String> files = new ArrayList<>();
        if (versusBestFixed(dir.resolve("link-default-vs-best-fixed.png"), rates, measurements)) {
            files.add("link-default-vs-best-fixed.png");
        }
        List<Measurement> step = measurements.stream().filter(m -> m.cell().kind() == Measurement.Kind.STEP).toList();
        if (rungsOverTime(dir.resolve("link-step-rungs.png"), step)) {
            files.add("link-step-rungs.png");
        }
        if (verifiedOverTime(dir.resolve("link-step-progress.png"), step)) {
            files.add("link-step-progress.png");
        }
        return files;
    }

    /** One line per scenario: the default's time over the best fixed rung's, across rates. */
    private static boolean versusBestFixed(Path file, List<Long> rates, List<Measurement> measurements)
            throws IOException {
        Map<String, Map<Long, Double>> series = new LinkedHashMap<>();
        Targets.byCell(measurements).forEach((cell, ms) -> {
            Ratio r = Targets.versusBestFixed(ms);
            if (cell.kind() == Measurement.Kind.RATE && r.bound() != Ratio.Bound.UNKNOWN) {
                series.computeIfAbsent(cell.scenario(), s -> new LinkedHashMap<>()).put(cell.rate(), r.value());
            }
        });
        if (series.isEmpty()) {
            return false;
        }
        List<String> labels = rates.stream().map(Rates::label).toList();
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Default controller's time over the best fixed rung's (below 1: default faster)")
                .xAxisTitle("link rate").yAxisTitle("default / best fixed").build();
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        for (Map.Entry<String, Map<Long, Double>> s : series.entrySet()) {
            List<Double> values = rates.stream().map(r -> s.getValue().getOrDefault(r, Double.NaN)).toList();
            chart.addSeries(s.getKey(), labels, values);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    private static boolean rungsOverTime(Path file, List<Measurement> step) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Rung over time in the rate-step cell (1 Gbit/s -> 10 Mbit/s -> 1 Gbit/s)")
                .xAxisTitle("seconds since the first byte").yAxisTitle("rung of the default ladder").build();
        boolean any = false;
        for (Measurement m : step) {
            List<RungTimeline.Point> points = m.run().rungs();
            if (m.contender().kind() != Contender.Kind.ADAPTIVE || points.isEmpty() || !m.run().finished()) {
                continue;
            }
            List<Double> x = new ArrayList<>();
            List<Integer> y = new ArrayList<>();
            int rung = points.get(0).rung();
            for (RungTimeline.Point p : points) {
                x.add(p.seconds()); // drawn as a step: the old rung until this instant, then the new one
                y.add(rung);
                x.add(p.seconds());
                y.add(p.rung());
                rung = p.rung();
            }
            x.add(m.run().seconds());
            y.add(rung);
            chart.addSeries(m.contender().label(), x, y);
            any = true;
        }
        if (any) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        return any;
    }

    private static boolean verifiedOverTime(Path file, List<Measurement> step) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Input verified by the receiver in the rate-step cell")
                .xAxisTitle("seconds since the first byte").yAxisTitle("MiB verified").build();
        boolean any = false;
        for (Measurement m : step) {
            double[] samples = m.run().samples();
            if (samples.length == 0 || !m.run().finished()) {
                continue;
            }
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int k = 0; k < samples.length; k++) {
                x.add(samples[k]);
                y.add((k + 1.0) * Agents.SAMPLE_BYTES / (1 << 20));
            }
            chart.addSeries(m.contender().label(), x, y);
            any = true;
        }
        if (any) {
            chart.getStyler().setMarkerSize(0);
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        return any;
    }
}
