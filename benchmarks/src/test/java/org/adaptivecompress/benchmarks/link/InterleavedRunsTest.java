package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The order in which {@link InterleavedRuns} runs a cell's transfers. */
class InterleavedRunsTest {

    private final List<Contender> three = Contender.all().subList(0, 3);

    @Test
    void contendersTakeTurnsRoundByRoundAndOneThatWantsNoMoreRunsDropsOut() throws Exception {
        Contender a = three.get(0);
        Contender b = three.get(1);
        Contender c = three.get(2);
        List<String> order = new ArrayList<>();

        // b's first transfer is slow: it runs once; a and c run three times each, in turns.
        Map<Contender, List<LinkTransfer.Result>> runs = InterleavedRuns.run(three,
                first -> first.seconds() < 4.0 ? 3 : 1,
                contender -> {
                    order.add(contender.name());
                    return result(contender == b ? 5.0 : order.size());
                });

        assertThat(order).containsExactly(a.name(), b.name(), c.name(), a.name(), c.name(), a.name(), c.name());
        assertThat(runs.keySet()).containsExactly(a, b, c);
        assertThat(runs.get(a)).extracting(LinkTransfer.Result::seconds).containsExactly(1.0, 4.0, 6.0);
        assertThat(runs.get(b)).extracting(LinkTransfer.Result::seconds).containsExactly(5.0);
        assertThat(runs.get(c)).extracting(LinkTransfer.Result::seconds).containsExactly(3.0, 5.0, 7.0);
    }

    @Test
    void oneRunEachIsOneRound() throws Exception {
        List<String> order = new ArrayList<>();

        Map<Contender, List<LinkTransfer.Result>> runs = InterleavedRuns.run(three, first -> 1, contender -> {
            order.add(contender.name());
            return result(1.0);
        });

        assertThat(order).hasSize(3);
        assertThat(runs.values()).allSatisfy(r -> assertThat(r).hasSize(1));
    }

    private static LinkTransfer.Result result(double seconds) {
        return new LinkTransfer.Result(seconds, 1, true, List.of());
    }
}
