package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.junit.jupiter.api.Test;

/** Deadlines from the cell's fastest transfer, repeats of short transfers, medians that rank aborted runs last. */
class CellRunnerTest {

    private final LinkConfig.Sizes sizes = new LinkConfig.Sizes(2, 1, 1 << 30, 1, 1, 2.5, 3.0, 1.5, 3, 5);
    private final Measurement.Cell cell = Fixtures.cell("mixed:7001", "100mbit");

    @Test
    void theFirstTransferHasNoDeadlineAndEachLaterOneTwoAndAHalfTimesTheFastestSoFarAtLeastTheFloor()
            throws Exception {
        List<Contender> four = Contender.parseList("plain,default,fixed:0,fixed:6");
        Map<String, Double> times = Map.of("plain", 4.0, "default", 2.0, "fixed:0", 4.1, "fixed:6", 60.0);
        List<Double> deadlines = new ArrayList<>();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        List<Measurement> measured = new CellRunner(sizes, new PrintStream(progress, true, StandardCharsets.UTF_8))
                .measure(cell, four, 1 << 20, (c, deadline) -> {
                    deadlines.add(deadline);
                    double t = times.get(c.id());
                    return deadline > 0 && t > deadline ? Measurement.Run.aborted(deadline, 5) : Fixtures.run(t);
                });

        assertThat(deadlines).containsExactly(0.0, 10.0, 5.0, 5.0);
        assertThat(measured).extracting(m -> m.run().aborted()).containsExactly(false, false, false, true);
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("> 5.00 s (cut off)");
    }

    @Test
    void shortTransfersRepeatAndTheMedianIsKept() throws Exception {
        List<Double> plain = new ArrayList<>(List.of(0.5, 0.9, 0.7));

        List<Measurement> measured = new CellRunner(sizes, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).measure(cell, Contender.parseList("plain"), 1 << 20,
                        (c, deadline) -> Fixtures.run(plain.remove(0)));

        assertThat(measured.get(0).runs()).isEqualTo(3);
        assertThat(measured.get(0).run().seconds()).isEqualTo(0.7);
    }

    @Test
    void aMedianRanksAbortedRunsAfterFinishedOnesAndFailedOnesLast() {
        Contender c = Contender.parse("fixed:6");

        Measurement twoCut = CellRunner.median(cell, c, 1, List.of(Measurement.Run.aborted(3, 1), Fixtures.run(1),
                Measurement.Run.aborted(3, 1)));
        Measurement oneFailed = CellRunner.median(cell, c, 1, List.of(Fixtures.run(2), Measurement.Run.failed(),
                Fixtures.run(1)));

        assertThat(twoCut.run().aborted()).isTrue();
        assertThat(oneFailed.run().seconds()).isEqualTo(2.0);
        assertThat(oneFailed.run().verified()).as("one run failed to verify").isFalse();
    }
}
