package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The targets computed from hand-made measurements. */
class TargetsTest {

    private static Targets.Target target(List<Targets.Target> targets, String prefix, int nth) {
        return targets.stream().filter(t -> t.title().startsWith(prefix)).skip(nth).findFirst().orElseThrow();
    }

    @Test
    void aDefaultWithinFivePercentOfTheBestFixedEverywhereAndFasterThanZstdAdaptMeetsTheTargets() {
        List<Measurement> all = new ArrayList<>();
        // plain, raw, zstd:3, default, zstd --adapt
        all.addAll(Fixtures.cellOf(Fixtures.cell("mixed:7001", "10mbit"), 8, 8, 2, 1.9, 2.2));
        all.addAll(Fixtures.cellOf(Fixtures.cell("fast-changing:7001", "10mbit"), 8, 8, 4, 3.8, 4.0));
        all.addAll(Fixtures.cellOf(Fixtures.cell("homogeneous:7001", "1gbit"), 1, 1, 1.2, 1.04, 1.3));
        all.addAll(Fixtures.cellOf(Fixtures.cell("mixed:7001", "unlimited"), 0.5, 0.52, 2, 0.54, 3));
        List<StepCell.StepRecovery> steps = List.of(new StepCell.StepRecovery("default", 0, 1, OptionalInt.of(12)),
                new StepCell.StepRecovery("default", 1, 2, OptionalInt.of(8)));

        List<Targets.Target> targets = Targets.evaluate(all, steps);

        assertThat(targets).hasSize(5).allSatisfy(t -> assertThat(t.met()).as(t.markdown()).isTrue());
        assertThat(target(targets, "(a)", 0).figure()).startsWith("3 of 3 cells; worst 1.04x in rate homogeneous");
        // 1.9/2 and 3.8/4: 0.95 each.
        assertThat(target(targets, "(a)", 1).figure()).startsWith("0.950 over 2 cells");
        assertThat(target(targets, "(c)", 0).figure()).contains("worst 0.93x");
        assertThat(target(targets, "(d)", 0).figure()).isEqualTo("step 1: 12 blocks; step 2: 8 blocks");
    }

    @Test
    void oneSlowCellABoundFromACutOffAndAMissingRecoveryAreNotMet() {
        List<Measurement> all = new ArrayList<>();
        Measurement.Cell slow = Fixtures.cell("mixed:7001", "100mbit");
        all.addAll(Fixtures.cellOf(slow, 2, 2, 1, 1.2, 1.1));
        Measurement.Cell cut = Fixtures.cell("homogeneous:7001", "100mbit");
        all.addAll(List.of(Fixtures.finished(cut, "fixed:3", 1), Fixtures.aborted(cut, "default", 3),
                Fixtures.aborted(cut, "zstd-adapt", 3)));
        List<StepCell.StepRecovery> steps = List.of(new StepCell.StepRecovery("default", 0, 1, OptionalInt.empty()));

        List<Targets.Target> targets = Targets.evaluate(all, steps);

        assertThat(target(targets, "(a)", 0).met()).isFalse();
        assertThat(target(targets, "(a)", 0).figure()).isEqualTo("0 of 2 cells; worst >3.00x in rate homogeneous:7001"
                + " @ 100 Mbit/s");
        assertThat(target(targets, "(b)", 0).figure()).contains("worst n/ax");
        assertThat(target(targets, "(c)", 0).markdown()).endsWith("**not measured**");
        assertThat(target(targets, "(d)", 0).figure()).isEqualTo("step 1: not within the stretch");
    }

    @Test
    void ratiosBecomeBoundsWhereAContenderWasCutOff() {
        Measurement.Cell c = Fixtures.cell("mixed:7001", "1gbit");
        Optional<Measurement> fast = Optional.of(Fixtures.finished(c, "default", 1));
        Optional<Measurement> cut = Optional.of(Fixtures.aborted(c, "zstd-adapt", 4));

        assertThat(Ratio.of(fast, cut).format()).isEqualTo("<0.25");
        assertThat(Ratio.of(fast, cut).atMost(1.0)).isTrue();
        assertThat(Ratio.of(cut, fast).format()).isEqualTo(">4.00");
        assertThat(Ratio.of(cut, fast).atMost(5.0)).isFalse();
        assertThat(Ratio.of(cut, fast).inverse().atMost(0.25)).isTrue();
        assertThat(Ratio.of(cut, cut).format()).isEqualTo("n/a");
        assertThat(Ratio.of(fast, Optional.empty()).atLeast(0)).isFalse();
    }
}
