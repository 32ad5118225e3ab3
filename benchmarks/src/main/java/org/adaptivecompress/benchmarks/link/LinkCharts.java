package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    static List<String> write(Path dir, LinkConfig config, Map<Measurement.Cell, List<Measurement>> cells)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<String> files = new ArrayList<>();
        for (LinkData data : config.kinds()) {
            String name = "link-" + data.label() + ".png";
            if (timesPerRate(dir.resolve(name), data, config, cells)) {
                files.add(name);
            }
        }
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : cells.entrySet()) {
            if (e.getKey().scenario().equals("step")) {
                String name = "link-step-rungs.png";
                if (rungsOverTime(dir.resolve(name), e.getValue())) {
                    files.add(name);
                }
            }
        }
        return files;
    }

    private static boolean timesPerRate(Path file, LinkData data, LinkConfig config,
            Map<Measurement.Cell, List<Measurement>> cells) throws IOException {
        List<String> rates = new ArrayList<>();
        List<List<Measurement>> columns = new ArrayList<>();
        for (long rate : config.rates()) {
            List<Measurement> cell = cells.get(new Measurement.Cell("rate", data.label(), LinkConfig.rateLabel(rate)));
            if (cell != null) {
                rates.add(LinkConfig.rateLabel(rate));
                columns.add(cell);
            }
        }
        if (columns.isEmpty()) {
            return false;
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Link benchmark: " + data.label() + ", time to send and verify (log scale, lower is better)")
                .xAxisTitle("link rate").yAxisTitle("seconds").build();
        // Lines, not bars: XChart's bars start at zero, which a logarithmic axis cannot show.
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        for (Measurement first : columns.get(0)) {
            List<Double> times = new ArrayList<>();
            for (List<Measurement> cell : columns) {
                times.add(LinkReport.named(cell, first.contender().name()).map(m -> m.result().seconds())
                        .orElse(0.0));
            }
            chart.addSeries(first.contender().name(), rates, times);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    private static boolean rungsOverTime(Path file, List<Measurement> cell) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Rung over time, link 1000 -> 10 -> 1000 Mbit/s (JSON)")
                .xAxisTitle("seconds since the first byte").yAxisTitle("rung of the default ladder").build();
        boolean any = false;
        for (Measurement m : cell) {
            List<RungTimeline.Point> points = m.result().rungs();
            if (!m.contender().adaptive() || points.isEmpty()) {
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
            x.add(m.result().seconds());
            y.add(rung);
            chart.addSeries(m.contender().name(), x, y);
            any = true;
        }
        if (any) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        return any;
    }
}
