package org.adaptivecompress.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Objective;
import org.junit.jupiter.api.Test;

/** The cost a stream's statistics report: its wire bytes at the egress price plus its compression CPU. */
class CompressionStatisticsCostTest {

    @Test
    void costIsWireBytesAtTheEgressPricePlusCpuAtTheCpuPrice() {
        Ladder ladder = Ladder.parse("raw,zstd:3");
        // 3 GB written (1 raw, 2 compressed), 50 s of compression CPU.
        CompressionStatistics s = CompressionStatistics.builder(ladder, System.nanoTime()).currentRung(1)
                .stored(new long[] {1, 1}, new long[] {1, 6}, new long[] {1_000_000_000L, 2_000_000_000L})
                .cpuNanos(50_000_000_000L).rungChanges(1).build();
        Objective cost = Objective.parse("cost:egress=0.09,cpu=0.00004");
        assertThat(s.cost(cost)).isCloseTo(3 * 0.09 + 50 * 0.00004, within(1e-12));
        assertThat(s.cost(Objective.time())).isZero();
    }
}
