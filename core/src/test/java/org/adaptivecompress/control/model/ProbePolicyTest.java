package org.adaptivecompress.control.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;
import org.junit.jupiter.api.Test;

class ProbePolicyTest {

    private final ProbePolicy policy = new ProbePolicy();

    /** The policy's answer after a further {@link ProbePolicy#INTERVAL} blocks at {@code home}; null on all before. */
    private Decision afterInterval(Model model, int home, double link) {
        for (int i = 1; i < ProbePolicy.INTERVAL; i++) {
            assertThat(policy.decide(model.steady(home, link))).isNull();
        }
        return policy.decide(model.steady(home, link));
    }

    @Test
    void probesEachNeighbourInTurnEveryInterval() {
        // 10 Mbit/s at zstd:9: both neighbours deliver within a few per cent of it.
        Model model = new Model().linkMeasuredAt(1.25e6, 4);
        Decision up = afterInterval(model, 4, 1.25e6);
        assertThat(up.reason()).isEqualTo(Reason.PROBE);
        assertThat(up.rung()).isEqualTo(5);
        model.observe(model.blocks.at(5, Blocks.span(12_500, 10_000_000))); // the probe block
        Decision down = afterInterval(model, 4, 1.25e6);
        assertThat(down.reason()).isEqualTo(Reason.PROBE);
        assertThat(down.rung()).isEqualTo(3);
    }

    @Test
    void skipsANeighbourPredictedToDeliverFarLessAndOneMeasuredLately() {
        // 1 Gbit/s at zstd:3: zstd:9 delivers a fifth as much, not worth a block; zstd:1 is.
        Model model = new Model().linkMeasuredAt(125e6, 3);
        assertThat(model.forecast.goodput(4, 125e6)).isLessThan(0.8 * model.forecast.goodput(3, 125e6));
        Decision d = afterInterval(model, 3, 125e6);
        assertThat(d.rung()).isEqualTo(2);
        model.observe(model.blocks.at(2, Blocks.span(1_250_000, 10_000_000))); // the probe block
        assertThat(afterInterval(model, 3, 125e6)).as("zstd:1 measured lately, zstd:9 not worth it").isNull();
    }
}
