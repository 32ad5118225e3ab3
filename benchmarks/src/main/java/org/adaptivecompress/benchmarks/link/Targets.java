package org.adaptivecompress.benchmarks.link;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Predicate;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.scenario.Scenario;

/**
 * The targets the default controller is held to, each computed from the measurements and stated
 * met or not with its figure:
 * (a) at most 1.05x the best fixed rung in every throttled rate cell (1 Mbit/s to 10 Gbit/s), and
 * a geometric mean of at most 0.97 over the families that mix kinds;
 * (b) at most 1.00x {@code zstd --adapt} in every throttled cell;
 * (c) unthrottled, at least 0.90x the plain copy's throughput;
 * (d) after each rate step, within 10 % of the new rate's best fixed goodput in at most 20 blocks.
 * A cell where the figure is unknown (the default cut off or failed) counts as not met.
 */
final class Targets {

    static final double PER_CELL = 1.05;
    static final double MIXED_MEAN = 0.97;
    static final double VERSUS_ZSTD_ADAPT = 1.00;
    static final double UNTHROTTLED_SHARE = 0.90;
    static final int RECOVERY_BLOCKS = 20;

    /**
     * One target's verdict.
     *
     * @param title what it asks
     * @param met whether the data meets it
     * @param figure the numbers behind the verdict, null if nothing was measured for it
     */
    record Target(String title, boolean met, String figure) {
        /** A target this run measured nothing for. */
        static Target unmeasured(String title) {
            return new Target(title, false, null);
        }

        /** {@code - title: **met** (figure)}, or {@code **not measured**}. */
        String markdown() {
            return "- " + title + ": " + (figure == null ? "**not measured**"
                    : "**" + (met ? "met" : "not met") + "** (" + figure + ")");
        }
    }

    private Targets() {}

    /** Every target over one set's measurements and the step cell's recoveries. */
    static List<Target> evaluate(List<Measurement> measurements, List<StepCell.StepRecovery> recoveries) {
        Map<Measurement.Cell, List<Measurement>> cells = byCell(measurements);
        List<Target> targets = new ArrayList<>();
        targets.add(everyCell(cells, "(a) default <= " + PER_CELL + "x the best fixed rung in every throttled rate cell",
                c -> c.kind() == Measurement.Kind.RATE && c.throttled(), Targets::versusBestFixed, PER_CELL, true));
        targets.add(mixedMean(cells));
        targets.add(everyCell(cells, "(b) default <= " + VERSUS_ZSTD_ADAPT + "x zstd --adapt in every throttled cell",
                c -> c.kind() != Measurement.Kind.SEGMENT && c.throttled(),
                cell -> Ratio.of(named(cell, Contender.DEFAULT), named(cell, Contender.ZSTD_ADAPT)),
                VERSUS_ZSTD_ADAPT, true));
        targets.add(everyCell(cells, "(c) unthrottled, default's throughput >= " + UNTHROTTLED_SHARE
                + "x the plain copy's", c -> c.kind() == Measurement.Kind.RATE && !c.throttled(),
                cell -> Ratio.of(named(cell, Contender.DEFAULT), named(cell, Contender.PLAIN)).inverse(),
                UNTHROTTLED_SHARE, false));
        targets.add(recovery(recoveries));
        return targets;
    }

    /** The default's time over the best fixed rung's in one cell. */
    static Ratio versusBestFixed(List<Measurement> cell) {
        return Ratio.of(named(cell, Contender.DEFAULT), bestFixed(cell));
    }

    private static Target everyCell(Map<Measurement.Cell, List<Measurement>> cells, String title,
            Predicate<Measurement.Cell> which, Function<List<Measurement>, Ratio> value, double limit,
            boolean atMost) {
        int met = 0;
        int counted = 0;
        Ratio worst = null;
        Measurement.Cell worstCell = null;
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : cells.entrySet()) {
            if (!which.test(e.getKey()) || named(e.getValue(), Contender.DEFAULT).isEmpty()) {
                continue;
            }
            Ratio r = value.apply(e.getValue());
            counted++;
            boolean ok = atMost ? r.atMost(limit) : r.atLeast(limit);
            if (ok) {
                met++;
            }
            if (worst == null || worse(r, worst, atMost)) {
                worst = r;
                worstCell = e.getKey();
            }
        }
        if (counted == 0) {
            return Target.unmeasured(title);
        }
        return new Target(title, met == counted, String.format(Locale.ROOT, "%d of %d cells; worst %sx in %s", met,
                counted, worst.format(), worstCell));
    }

    /** Whether {@code a} is further from the target than {@code b}: an unknown figure is the worst. */
    private static boolean worse(Ratio a, Ratio b, boolean atMost) {
        if (b.bound() == Ratio.Bound.UNKNOWN) {
            return false;
        }
        if (a.bound() == Ratio.Bound.UNKNOWN) {
            return true;
        }
        return atMost ? a.value() > b.value() : a.value() < b.value();
    }

    private static Target mixedMean(Map<Measurement.Cell, List<Measurement>> cells) {
        String title = "(a) geometric mean of default / best fixed <= " + MIXED_MEAN
                + " over the throttled rate cells of the families that mix kinds";
        List<Double> ratios = new ArrayList<>();
        int unknown = 0;
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : cells.entrySet()) {
            Measurement.Cell c = e.getKey();
            if (c.kind() == Measurement.Kind.RATE && c.throttled() && Scenario.parse(c.scenario()).family().mixesKinds()
                    && named(e.getValue(), Contender.DEFAULT).isPresent()) {
                Ratio r = versusBestFixed(e.getValue());
                if (r.bound() == Ratio.Bound.UNKNOWN) {
                    unknown++;
                } else {
                    ratios.add(r.value());
                }
            }
        }
        if (ratios.isEmpty()) {
            return Target.unmeasured(title);
        }
        double mean = geometricMean(ratios);
        return new Target(title, unknown == 0 && mean <= MIXED_MEAN, String.format(Locale.ROOT,
                "%.3f over %d cells%s", mean, ratios.size(), unknown == 0 ? "" : ", " + unknown + " cells unknown"));
    }

    private static Target recovery(List<StepCell.StepRecovery> recoveries) {
        String title = "(d) after each rate step, default within " + Math.round(100 * (1 - Recovery.SHARE))
                + " % of the new best fixed goodput in <= " + RECOVERY_BLOCKS + " blocks";
        List<StepCell.StepRecovery> mine = recoveries.stream()
                .filter(r -> r.contender().equals(Contender.DEFAULT)).toList();
        if (mine.isEmpty()) {
            return Target.unmeasured(title);
        }
        boolean met = mine.stream().allMatch(r -> r.blocks().isPresent() && r.blocks().getAsInt() <= RECOVERY_BLOCKS);
        List<String> figures = mine.stream().map(r -> "step " + (r.step() + 1) + ": " + blocks(r.blocks())).toList();
        return new Target(title, met, String.join("; ", figures));
    }

    static String blocks(OptionalInt blocks) {
        return blocks.isPresent() ? blocks.getAsInt() + " blocks" : "not within the stretch";
    }

    /** The cells in the order first measured. */
    static Map<Measurement.Cell, List<Measurement>> byCell(List<Measurement> measurements) {
        Map<Measurement.Cell, List<Measurement>> cells = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            cells.computeIfAbsent(m.cell(), k -> new ArrayList<>()).add(m);
        }
        return cells;
    }

    /** The fastest finished fixed rung in a cell. */
    static Optional<Measurement> bestFixed(List<Measurement> cell) {
        return cell.stream().filter(m -> m.contender().kind() == Contender.Kind.FIXED && m.run().finished())
                .min(Comparator.comparingDouble(m -> m.run().seconds()));
    }

    /** The measurement of the contender with this id in a cell. */
    static Optional<Measurement> named(List<Measurement> cell, String id) {
        return cell.stream().filter(m -> m.contender().id().equals(id)).findFirst();
    }

    /** The geometric mean; NaN for none. */
    static double geometricMean(List<Double> values) {
        return values.isEmpty() ? Double.NaN
                : Math.exp(values.stream().mapToDouble(Math::log).average().orElse(Double.NaN));
    }
}
