package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;
import org.junit.jupiter.api.Test;

class SwitchPolicyTest {

    private final SwitchPolicy policy = new SwitchPolicy();

    @Test
    void switchesToTheBestRungForTheLinkMeasured() {
        Model model = new Model().linkMeasuredAt(1.25e6, 1);
        Decision d = policy.decide(model.steady(1, 1.25e6));
        assertThat(d.reason()).isEqualTo(Reason.BEST);
        assertThat(d.rung()).isEqualTo(model.forecast.best(1.25e6, Blocks.TOP));
        assertThat(d.predictedGoodput()).isEqualTo(model.forecast.goodput(d.rung(), d.linkBytesPerSecond()));
        assertThat(policy.settled()).isEqualTo(d.rung());
    }

    @Test
    void keepsItsRungWhereTheBestIsForecastLessThanTheHysteresisBetter() {
        // 1 Gbit/s: zstd:3 is forecast 2 % above zstd:1.
        Model model = new Model().linkMeasuredAt(125e6, 2);
        double gain = model.forecast.goodput(3, 125e6) / model.forecast.goodput(2, 125e6);
        assertThat(gain).isGreaterThan(1).isLessThan(1 + SwitchPolicy.HYSTERESIS_PERCENT / 100.0);
        Decision d = policy.decide(model.steady(2, 125e6));
        assertThat(d.reason()).isEqualTo(Reason.KEPT);
        assertThat(d.rung()).isEqualTo(2);
    }

    @Test
    void mixesTwoRungsWhereTheMixIsForecastBetterAndMeasuresBetter() {
        // 2 Gbit/s: lz4 alone is held back by the link, zstd:1 alone by its codec.
        double link = 250e6;
        Model model = new Model().linkMeasuredAt(link, 2);
        Forecast.Mix mix = model.forecast.mix(1, 2, link);
        assertThat(mix.goodput()).isGreaterThan(1.05 * model.forecast.goodput(2, link));
        // First a window at zstd:1 alone ...
        Decision d = policy.decide(model.next(2, 2, MS, Blocks.span((long) (link / 1000), MS)));
        long millis = 1;
        while (d.reason() != Reason.MIX) {
            assertThat(d.reason()).isIn(Reason.BEST, Reason.KEPT);
            d = policy.decide(model.next(2, 2, MS, Blocks.span((long) (link / 1000), MS)));
            millis++;
        }
        assertThat(millis).isBetween(MixTrial.WINDOW_MILLIS, MixTrial.WINDOW_MILLIS + 2);
        // ... then the mix: lz4 in the share that keeps the codec as busy as the link.
        int upper = 0;
        int blocks = 1000;
        for (int i = 0; i < blocks; i++) {
            d = policy.decide(model.next(2, 2, MS / 2, Blocks.span((long) (link / 2000), MS / 2)));
            assertThat(d.reason()).isEqualTo(Reason.MIX);
            assertThat(d.rung()).isIn(1, 2);
            upper += d.rung() == 2 ? 1 : 0;
        }
        assertThat(upper / (double) blocks).isCloseTo(mix.share(), org.assertj.core.api.Assertions.within(0.01));
        assertThat(policy.settled()).isEqualTo(2);
    }
}
