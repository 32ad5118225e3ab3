package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.adaptivecompress.benchmarks.scenario.Scenario;

/**
 * The rate-step cell: one mixed scenario at 1 Gbit/s, 10 Mbit/s while the receiver verifies its
 * second quarter, 1 Gbit/s again for the second half; then each fixed rung on each stretch alone
 * at its rate ({@link PerSegmentBest}), and how many blocks each adaptive contender took to catch
 * up after each step ({@link Recovery}).
 */
final class StepCell {

    /** The fast rate: a LAN. */
    static final long HIGH = Rates.parse("1gbit");
    /** The slow rate, a hundredth of it: a congested or remote path. */
    static final long LOW = Rates.parse("10mbit");
    /** Down when a quarter is verified, up again at half: both steps well inside the input. */
    static final List<Agents.RateStep> STEPS = List.of(new Agents.RateStep(0.25, LOW), new Agents.RateStep(0.5, HIGH));

    /**
     * The adaptive contenders' catching up after one step.
     *
     * @param contender the contender's label
     * @param step 0 for the step down, 1 for the step up
     * @param toRate the new rate
     * @param blocks blocks after the step until recovered, empty if not within the stretch
     */
    record StepRecovery(String contender, int step, long toRate, OptionalInt blocks) {}

    /**
     * What the step cell measured.
     *
     * @param measurements every contender in the step cell, then the fixed rungs on each stretch
     * @param best the per-segment best
     * @param recoveries each adaptive contender's recovery after each step
     */
    record Result(List<Measurement> measurements, PerSegmentBest best, List<StepRecovery> recoveries) {}

    private final Agents agents;
    private final CellRunner runner;

    StepCell(Agents agents, CellRunner runner) {
        this.agents = agents;
        this.runner = runner;
    }

    /** Runs the cell on {@code length} bytes of {@code scenario}. */
    Result run(String set, Scenario scenario, long length, List<Contender> contenders) throws IOException {
        Measurement.Cell cell = new Measurement.Cell(set, scenario.name(), scenario.description(),
                Measurement.Kind.STEP, HIGH, Rates.label(HIGH) + " -> " + Rates.label(LOW) + " -> " + Rates.label(HIGH));
        agents.prepare(scenario, 0, length);
        List<Measurement> all = new ArrayList<>(runner.measure(cell, contenders, length, (c, deadline) -> {
            agents.link().setRate(HIGH);
            return agents.transfer(c, length, deadline, STEPS);
        }));
        List<Contender> fixed = contenders.stream().filter(c -> c.kind() == Contender.Kind.FIXED).toList();
        List<PerSegmentBest.Best> bests = new ArrayList<>();
        for (PerSegmentBest.Segment segment : segments(length)) {
            Measurement.Cell segmentCell = new Measurement.Cell(set, scenario.name() + " bytes " + segment.from() + ".."
                    + segment.to(), scenario.description(), Measurement.Kind.SEGMENT, segment.bytesPerSecond(),
                    Rates.label(segment.bytesPerSecond()));
            agents.prepare(scenario, segment.from(), segment.length());
            agents.link().setRate(segment.bytesPerSecond());
            List<Measurement> measured = runner.measure(segmentCell, fixed, segment.length(),
                    (c, deadline) -> agents.transfer(c, segment.length(), deadline, List.of()));
            all.addAll(measured);
            bests.add(measured.stream().filter(m -> m.run().finished())
                    .min(Comparator.comparingDouble(m -> m.run().seconds()))
                    .map(m -> new PerSegmentBest.Best(segment, m.contender().label(), m.run().seconds()))
                    .orElse(new PerSegmentBest.Best(segment, null, Double.NaN)));
        }
        PerSegmentBest best = new PerSegmentBest(cell, bests);
        return new Result(all, best, recoveries(all, best));
    }

    /** The stretches of an input of {@code length} bytes between the steps, each at its rate. */
    static List<PerSegmentBest.Segment> segments(long length) {
        List<PerSegmentBest.Segment> segments = new ArrayList<>();
        long from = 0;
        long rate = HIGH;
        for (Agents.RateStep step : STEPS) {
            long to = (long) (step.afterFraction() * length);
            segments.add(new PerSegmentBest.Segment(from, to, rate));
            from = to;
            rate = step.bytesPerSecond();
        }
        segments.add(new PerSegmentBest.Segment(from, length, rate));
        return segments;
    }

    /** Each finished adaptive measurement's blocks to recover after each step. */
    static List<StepRecovery> recoveries(List<Measurement> measurements, PerSegmentBest best) {
        List<StepRecovery> recoveries = new ArrayList<>();
        for (Measurement m : measurements) {
            if (m.cell().kind() != Measurement.Kind.STEP || m.contender().kind() != Contender.Kind.ADAPTIVE
                    || !m.run().finished()) {
                continue;
            }
            for (int i = 0; i < STEPS.size() && i < m.run().steps().length; i++) {
                PerSegmentBest.Best next = best.segments().get(i + 1);
                OptionalInt blocks = Double.isNaN(next.seconds()) ? OptionalInt.empty()
                        : Recovery.blocksAfter(m.run().samples(), m.run().steps()[i], next.segment().to(),
                                next.goodput());
                recoveries.add(new StepRecovery(m.contender().label(), i, STEPS.get(i).bytesPerSecond(), blocks));
            }
        }
        return recoveries;
    }
}
