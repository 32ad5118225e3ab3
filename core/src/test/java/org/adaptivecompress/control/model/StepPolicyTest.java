package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;
import org.junit.jupiter.api.Test;

class StepPolicyTest {

    private final StepPolicy policy = new StepPolicy();
    private final Model model = new Model();

    @Test
    void leavesASteadyMeasuredLinkToTheOtherPolicies() {
        model.linkMeasuredAt(125e6, 3);
        assertThat(policy.decide(model.steady(3, 125e6))).isNull();
    }

    @Test
    void aDropGoesStraightToTheBestRungForTheSlowerLink() {
        model.linkMeasuredAt(125e6, 3);
        // 2.5 MB/s over half a second, with the span's usual bytes.
        Decision d = policy.decide(model.next(3, 3, 500 * MS, Blocks.span(1_250_000, 500 * MS)));
        assertThat(d.reason()).isEqualTo(Reason.LINK_DROPPED);
        assertThat(d.rung()).isEqualTo(model.forecast.best(2.5e6, Blocks.TOP)).isGreaterThan(3);
        assertThat(d.linkBytesPerSecond()).isCloseTo(2.5e6, within(1e3));
    }

    @Test
    void aRiseTakesTheBestRungForALinkFourTimesTheNewBound() {
        model.linkMeasuredAt(1.25e6, 5);
        Decision d = policy.decide(model.next(5, 5, 10 * MS, Blocks.span(125_000, 10 * MS))); // 12.5 MB/s
        assertThat(d.reason()).isEqualTo(Reason.LINK_ROSE);
        assertThat(d.rung()).isEqualTo(Math.min(5, model.forecast.best(StepPolicy.OPTIMISM * 12.5e6, Blocks.TOP)));
        assertThat(d.rung()).isLessThan(5);
        // Until the next bound or measurement, the rung is kept.
        Decision kept = policy.decide(model.next(d.rung(), d.rung(), MS, Blocks.free(10_000)));
        assertThat(kept.reason()).isEqualTo(Reason.KEPT);
        assertThat(kept.rung()).isEqualTo(d.rung());
    }

    @Test
    void aLinkThatOutranTheStreamGetsAFasterRungWithEachBound() {
        Decision last = null;
        int home = 3;
        long taken = 0;
        // The sink takes 128 KiB a millisecond and never fills: at least 131 MB/s.
        while (taken < 3 * LinkEstimate.MAX_HIDDEN_BYTES) {
            Decision d = policy.decide(model.next(home, home, MS, Blocks.free(131_072)));
            taken += 131_072;
            if (d != null && d.reason() == Reason.LINK_FASTER) {
                assertThat(d.rung()).isLessThan(home);
                home = d.rung();
                last = d;
            }
        }
        assertThat(last).isNotNull();
        assertThat(home).as("raw or lz4, by a link over 131 MB/s shown to outrun the stream").isLessThanOrEqualTo(1);
    }
}
