package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.testing.LinkSimulation;
import org.adaptivecompress.testing.LinkSimulation.Profile;
import org.junit.jupiter.api.Test;

/** The simulator check on a hand-made CSV: parsing, the profile it derives, the table it prints. */
class SimulatorCheckTest {

    private static final String HEADER = "set,cell,scenario,rate,contender,input_bytes,seconds,wire_bytes,verified,"
            + "aborted,runs,in_flight_bytes,blocks_per_rung";
    private static final String[] NAMES = {"raw", "lz4", "zstd:1", "zstd:3", "zstd:9", "zstd:15", "xz:6"};

    /** Two rate cells of one scenario, a rung's time its input over min(speed, rate x ratio); plus rows to skip. */
    private static List<String> csv() {
        double[] speed = {2e9, 800e6, 500e6, 400e6, 80e6, 8e6, 3e6};
        double[] ratio = {1, 3, 4, 4.2, 5, 5.5, 6};
        List<String> lines = new ArrayList<>(List.of(HEADER));
        for (long rate : new long[] {1_250_000, 125_000_000, Long.MAX_VALUE}) {
            long input = rate == Long.MAX_VALUE ? 1 << 30 : 2 * rate;
            String label = rate == 1_250_000 ? "10 Mbit/s" : rate == 125_000_000 ? "1 Gbit/s" : "unthrottled";
            for (int r = 0; r < NAMES.length; r++) {
                double seconds = input / Math.min(speed[r], rate * ratio[r]);
                lines.add(String.format(java.util.Locale.ROOT, "held-out,rate,json:1,%s,fixed:%d %s,%d,%.4f,%d,true,false,1,-1,",
                        label, r, NAMES[r], input, seconds, (long) (input / ratio[r])));
            }
            lines.add("held-out,rate,json:1," + label + ",default," + input + ",1.0,1000,true,false,1,-1,");
            lines.add("held-out,rate,other:2," + label + ",fixed:0 raw," + input + ",9.0,1000,true,false,1,-1,");
        }
        lines.add("held-out,busy,json:1,\"100 Mbit/s, a core busy\",default,1000,1.0,1000,true,false,1,-1,");
        return lines;
    }

    @Test
    void readsTheScenariosRateCellsAndQuotedFields() {
        assertThat(SimulatorCheck.fields("a,\"b, c\",\"say \"\"x\"\"\",d")).containsExactly("a", "b, c", "say \"x\"", "d");
        List<SimulatorCheck.Transfer> transfers = SimulatorCheck.transfers(csv(), "json:1");
        assertThat(transfers).hasSize(24);
        assertThat(transfers).filteredOn(t -> t.rung() == SimulatorCheck.Transfer.DEFAULT).hasSize(3);
    }

    @Test
    void takesEachRungsSpeedFromItsFastestTransferUnthrottledIncludedAndItsRatioFromItsSlowestCell() {
        Profile p = SimulatorCheck.profile(SimulatorCheck.transfers(csv(), "json:1"), NAMES.length);

        assertThat(p.speed(4)).isCloseTo(80e6, org.assertj.core.data.Percentage.withPercentage(0.1));
        assertThat(p.ratio(4)).isCloseTo(5, org.assertj.core.data.Percentage.withPercentage(0.1));
        assertThat(p.speed(0)).isCloseTo(2e9, org.assertj.core.data.Percentage.withPercentage(0.1)); // unthrottled
    }

    @Test
    void printsARowPerRateWhereASimulatedLinkOfFixedRateAgreesWithIt() {
        List<SimulatorCheck.Transfer> transfers = SimulatorCheck.transfers(csv(), "json:1");
        String table = SimulatorCheck.table(transfers, SimulatorCheck.profile(transfers, NAMES.length), NAMES.length,
                LinkSimulation.LINUX);

        assertThat(table.lines()).hasSize(4);
        // The hand-made times are those of a link of fixed rate: the simulator finds the same best rung, within 10 %.
        assertThat(table).contains("| 10 Mbit/s | zstd:15 0.364 s | zstd:15 ", "| 1 Gbit/s | zstd:1 0.500 s | zstd:1 ");
        assertThat(table.lines().skip(2)).allSatisfy(row -> assertThat(row).contains("| 7 of 7 |"));
    }

    @Test
    void refusesARunWithoutAFinishedTransferAtSomeRung() {
        List<SimulatorCheck.Transfer> transfers = SimulatorCheck.transfers(csv(), "json:1");
        transfers.removeIf(t -> t.rung() == 6);
        assertThatThrownBy(() -> SimulatorCheck.profile(transfers, NAMES.length))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rung 6");
    }
}
