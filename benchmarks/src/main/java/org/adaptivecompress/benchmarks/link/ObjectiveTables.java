package org.adaptivecompress.benchmarks.link;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.control.Objective;

/**
 * The tables of the contenders that pursue another objective than time, against the fixed rungs
 * of the same cell: a CPU budget's time over the fastest fixed rung whose compression fitted the
 * budget, and the cores it used; a cost's money over the cheapest fixed rung's. CPU is what the
 * streams' threads spent compressing, on their CPU clocks; money is egress on the wire bytes
 * plus {@link Contender#CORE_SECOND_PRICE} per CPU-second.
 */
final class ObjectiveTables {

    /** A budget is met if compression used at most this much more than it: the clock's and the JIT's noise. */
    static final double BUDGET_SLACK = 1.1;
    /** Within this of the best fixed rung meets the time or cost target. */
    static final double TARGET = 1.05;

    private ObjectiveTables() {}

    /** The tables in markdown, empty if no contender pursued another objective. */
    static String markdown(List<Measurement> measurements) {
        List<String> budgetRows = new ArrayList<>();
        List<String> costRows = new ArrayList<>();
        int[] budgetMet = new int[2];
        int[] costMet = new int[2];
        for (Map.Entry<Measurement.Cell, List<Measurement>> e : Targets.byCell(measurements).entrySet()) {
            if (e.getKey().kind() != Measurement.Kind.RATE) {
                continue;
            }
            for (Measurement m : e.getValue()) {
                Objective o = m.contender().objective();
                if (o.kind() == Objective.Kind.CPU_BUDGET) {
                    budgetRows.add(budgetRow(e.getKey(), m, o, e.getValue(), budgetMet));
                } else if (o.kind() == Objective.Kind.COST) {
                    costRows.add(costRow(e.getKey(), m, o, e.getValue(), costMet));
                }
            }
        }
        StringBuilder md = new StringBuilder();
        if (!budgetRows.isEmpty()) {
            md.append("| scenario | rate | contender | time (s) | cores used | best fixed within budget | time / it |\n")
                    .append("|---|---|---|---:|---:|---|---:|\n");
            budgetRows.forEach(r -> md.append(r).append('\n'));
            md.append(String.format(Locale.ROOT, "%nBudget kept (cores at most %.2f of it) and time within %.0f %% of"
                    + " the best fixed rung that fits: %d of %d cells.%n%n", BUDGET_SLACK, (TARGET - 1) * 100,
                    budgetMet[0], budgetMet[1]));
        }
        if (!costRows.isEmpty()) {
            md.append("| scenario | rate | contender | cost per GB of input | rung mix | cheapest fixed | cost / it |\n")
                    .append("|---|---|---|---:|---|---|---:|\n");
            costRows.forEach(r -> md.append(r).append('\n'));
            md.append(String.format(Locale.ROOT, "%nCost within %.0f %% of the cheapest fixed rung: %d of %d cells.%n",
                    (TARGET - 1) * 100, costMet[0], costMet[1]));
        }
        return md.toString();
    }

    private static String budgetRow(Measurement.Cell cell, Measurement m, Objective o, List<Measurement> all,
            int[] met) {
        Optional<Measurement> fitting = fixed(all).filter(f -> f.run().compressionCores() <= o.cores())
                .min(Comparator.comparingDouble(f -> f.run().seconds()));
        double cores = m.run().compressionCores();
        double ratio = m.run().finished() && fitting.isPresent() ? m.run().seconds() / fitting.get().run().seconds()
                : Double.NaN;
        met[1]++;
        if (cores <= o.cores() * BUDGET_SLACK && ratio <= TARGET) {
            met[0]++;
        }
        return String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f | %s | %s |", cell.scenario(), cell.rateLabel(),
                m.contender().id(), seconds(m), cores,
                fitting.map(f -> ReportTables.rung(f.contender().label()) + " " + seconds(f)).orElse("none"),
                Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio));
    }

    private static String costRow(Measurement.Cell cell, Measurement m, Objective o, List<Measurement> all, int[] met) {
        Optional<Measurement> cheapest = fixed(all).min(Comparator.comparingDouble(f -> cost(f, o)));
        double ratio = m.run().finished() && cheapest.isPresent() ? cost(m, o) / cost(cheapest.get(), o) : Double.NaN;
        met[1]++;
        if (ratio <= TARGET) {
            met[0]++;
        }
        return String.format(Locale.ROOT, "| %s | %s | %s | %.4f | %s | %s %.4f | %s |", cell.scenario(),
                cell.rateLabel(), m.contender().id(), cost(m, o), blocks(m.run().blocks()),
                cheapest.map(f -> ReportTables.rung(f.contender().label())).orElse("none"),
                cheapest.map(f -> cost(f, o)).orElse(Double.NaN),
                Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio));
    }

    private static Stream<Measurement> fixed(List<Measurement> cell) {
        return cell.stream().filter(f -> f.contender().kind() == Contender.Kind.FIXED && f.run().finished()
                && f.run().cpuNanos() >= 0);
    }

    /** Money per 10^9 input bytes: egress on the wire bytes and the compression CPU. */
    static double cost(Measurement m, Objective o) {
        if (!m.run().finished() || m.run().cpuNanos() < 0) {
            return Double.NaN;
        }
        double money = m.run().wireBytes() / 1e9 * o.pricePerGigabyte() + m.run().cpuNanos() / 1e9 * o.pricePerCpuSecond();
        return money / (m.inputBytes() / 1e9);
    }

    private static String seconds(Measurement m) {
        return m.run().finished() ? String.format(Locale.ROOT, "%.2f", m.run().seconds()) : "-";
    }

    /** The rungs' shares of the blocks, e.g. {@code 4:80% 3:20%}, by rung index. */
    private static String blocks(long[] blocks) {
        long total = 0;
        for (long b : blocks) {
            total += b;
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < blocks.length; r++) {
            if (total > 0 && blocks[r] * 20 >= total) { // shares of 5 % and more
                sb.append(sb.length() > 0 ? " " : "").append(r).append(':').append(Math.round(100.0 * blocks[r] / total))
                        .append('%');
            }
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }
}
