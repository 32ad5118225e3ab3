package org.adaptivecompress.benchmarks.link.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.adaptivecompress.benchmarks.scenario.Family;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** A transfer's input: the prepared bytes of a scenario, repeated past their block, and checked on arrival. */
class InputTest {

    private final Scenario scenario = new Scenario(Family.FAST_CHANGING, 11);

    @Test
    void anInputRepeatsItsBlockAndFindsTheFirstWrongByte() throws Exception {
        byte[] block = {1, 2, 3, 4, 5};
        LinkInput input = new LinkInput(block, 12);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        input.writeTo(out);
        byte[] sent = out.toByteArray();

        assertThat(sent).containsExactly(1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2);
        assertThat(input.mismatch(3, Arrays.copyOfRange(sent, 3, 9), 6)).isEqualTo(-1);
        byte[] wrong = Arrays.copyOfRange(sent, 3, 9);
        wrong[4] = 9;
        assertThat(input.mismatch(3, wrong, 6)).isEqualTo(7);
        assertThat(input.mismatch(10, new byte[] {1, 2, 3}, 3)).isEqualTo(12);
    }

    @Test
    void theCachePreparesPrefixesAndSlicesOfAScenario() {
        InputCache cache = new InputCache();
        byte[] whole = scenario.generate(3 << 20);

        cache.prepare(scenario, 0, 3 << 20);
        assertThat(cache.input().block()).isEqualTo(whole);
        cache.prepare(scenario, 0, 1 << 20);
        assertThat(cache.input().length()).isEqualTo(1 << 20);
        assertThat(cache.input().mismatch(0, Arrays.copyOf(whole, 1 << 20), 1 << 20)).isEqualTo(-1);
        cache.prepare(scenario, 1 << 20, 1 << 20);
        assertThat(cache.input().block()).isEqualTo(Arrays.copyOfRange(whole, 1 << 20, 2 << 20));
    }

    @Test
    void theCacheRefusesSlicesPastTheUniqueBytesAndSendingBeforePreparing() {
        InputCache cache = new InputCache();

        assertThatThrownBy(cache::input).hasMessageContaining("no input prepared");
        assertThatThrownBy(() -> cache.prepare(scenario, 1, Scenario.MAX_UNIQUE_BYTES))
                .hasMessageContaining("must lie within the first");
    }
}
