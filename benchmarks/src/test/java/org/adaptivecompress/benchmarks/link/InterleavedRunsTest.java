package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.junit.jupiter.api.Test;

/** The order in which {@link InterleavedRuns} runs a cell's transfers. */
class InterleavedRunsTest {

    private final List<Contender> three = Contender.defaults().subList(0, 3);

    @Test
    void contendersTakeTurnsRoundByRoundAndOneThatWantsNoMoreRunsDropsOut() throws Exception {
        Contender a = three.get(0);
        Contender b = three.get(1);
        Contender c = three.get(2);
        List<String> order = new ArrayList<>();

        // b's first transfer is slow: it runs once; a and c run three times each, in turns.
        Map<Contender, List<Measurement.Run>> runs = InterleavedRuns.run(three,
                first -> first.seconds() < 4.0 ? 3 : 1,
                contender -> {
                    order.add(contender.id());
                    return Fixtures.run(contender == b ? 5.0 : order.size());
                });

        assertThat(order).containsExactly(a.id(), b.id(), c.id(), a.id(), c.id(), a.id(), c.id());
        assertThat(runs.keySet()).containsExactly(a, b, c);
        assertThat(runs.get(a)).extracting(Measurement.Run::seconds).containsExactly(1.0, 4.0, 6.0);
        assertThat(runs.get(b)).extracting(Measurement.Run::seconds).containsExactly(5.0);
        assertThat(runs.get(c)).extracting(Measurement.Run::seconds).containsExactly(3.0, 5.0, 7.0);
    }
}
