package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.junit.jupiter.api.Test;

class ObjectiveTablesTest {

    private static final Measurement.Cell CELL = Fixtures.cell("mixed:7001", "100mbit");
    private static final long INPUT = 1_000_000_000L;

    private static Measurement run(String contender, double seconds, long wireBytes, double cpuSeconds) {
        Measurement.Run run = new Measurement.Run(seconds, wireBytes, true, false, -1, List.of(), new long[] {0, 10},
                new double[0], new double[0], (long) (cpuSeconds * 1e9));
        return new Measurement(CELL, Contender.parse(contender), INPUT, run, 1);
    }

    @Test
    void aBudgetIsComparedWithTheFastestFixedRungThatFitsIt() {
        List<Measurement> cell = List.of(
                run("fixed:0", 10, INPUT, 0.1),        // fits, slow
                run("fixed:3", 4, INPUT / 4, 1.0),     // 0.25 cores: fits
                run("fixed:4", 3, INPUT / 5, 2.4),     // 0.8 cores: does not
                run("cpu-budget:0.3", 4.08, INPUT / 4, 1.1));

        String md = ObjectiveTables.markdown(cell);

        assertThat(md).contains("| mixed:7001 | 100 Mbit/s | cpu-budget:0.3 | 4.08 | 0.27 | zstd:3 4.00 | 1.02 |")
                .contains("1 of 1 cells");
    }

    @Test
    void costCountsEgressOnTheWireAndTheCompressionCpu() {
        List<Measurement> cell = List.of(
                run("fixed:0", 10, INPUT, 0),            // 0.09 per GB input
                run("fixed:4", 30, INPUT / 5, 20),       // 0.018 + 20 s of a core
                run("cost:0.09", 30, INPUT / 5, 22));

        double cheapest = 0.09 / 5 + 20 * Contender.CORE_SECOND_PRICE;
        assertThat(ObjectiveTables.cost(cell.get(1), cell.get(2).contender().objective())).isCloseTo(cheapest,
                org.assertj.core.data.Offset.offset(1e-12));
        assertThat(ObjectiveTables.markdown(cell)).contains("| cost:0.09 |").contains("zstd:9").contains("| 1.00 |")
                .contains("1 of 1 cells");
    }

    @Test
    void noObjectiveContenderNoTables() {
        assertThat(ObjectiveTables.markdown(List.of(run("fixed:0", 1, INPUT, 0), run("default", 1, INPUT, 0))))
                .isEmpty();
    }
}
