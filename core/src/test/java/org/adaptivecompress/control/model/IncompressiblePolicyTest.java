package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;
import org.junit.jupiter.api.Test;

class IncompressiblePolicyTest {

    private final IncompressiblePolicy policy = new IncompressiblePolicy();
    private final Model model = new Model().linkMeasuredAt(12.5e6, 4);

    @Test
    void keepsTheSettledRungWhileTheDataDoesNotShrink() {
        Decision d = policy.decide(model.next(4, 4, 10 * MS, Blocks.span(Blocks.BLOCK, 10 * MS)));
        assertThat(d).isNull();
        d = policy.decide(model.situation(model.blocks.after(MS).at(4, Blocks.BLOCK, MS, Blocks.free(Blocks.BLOCK)), 4));
        assertThat(d.reason()).isEqualTo(Reason.INCOMPRESSIBLE);
        assertThat(d.rung()).isEqualTo(4);
    }

    @Test
    void neverSettlesOnRawWhereNothingWouldFindTheDataShrinkingAgain() {
        Model fast = new Model().linkMeasuredAt(1.25e9, 0);
        fast.observe(fast.blocks.after(MS).at(1, Blocks.BLOCK, MS / 10, Blocks.free(Blocks.BLOCK)));
        Decision d = policy.decide(fast.next(0, 0, MS, Blocks.free(Blocks.BLOCK)));
        assertThat(d.reason()).isEqualTo(Reason.INCOMPRESSIBLE);
        assertThat(d.rung()).isEqualTo(1);
    }
}
