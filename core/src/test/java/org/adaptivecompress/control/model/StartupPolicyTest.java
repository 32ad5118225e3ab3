package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;
import org.junit.jupiter.api.Test;

class StartupPolicyTest {

    private final StartupPolicy policy = new StartupPolicy();

    @Test
    void startsAtTheSmallestOutputRungThatKeepsUpWithAFastLink() {
        assertThat(StartupPolicy.startRung(Ladder.defaultLadder())).as("zstd:3").isEqualTo(3);
        assertThat(StartupPolicy.startRung(Ladder.parse("raw,lz4,xz:6"))).as("lz4").isEqualTo(1);
        assertThat(StartupPolicy.startRung(Ladder.parse("raw,xz:6"))).as("raw").isEqualTo(0);
    }

    @Test
    void holdsTheStartRungUntilTheLinkShowsItsRate() {
        Model model = new Model();
        Decision d = policy.decide(model.next(3, 3, MS, Blocks.free(65_536)));
        assertThat(d.rung()).isEqualTo(3);
        assertThat(d.reason()).isEqualTo(Reason.STARTUP);
        assertThat(d.linkBytesPerSecond()).isNaN();

        model.linkMeasuredAt(12.5e6, 3);
        assertThat(policy.decide(model.steady(3, 12.5e6))).isNull();
    }
}
