package org.adaptivecompress.control.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.adaptivecompress.control.Objective;
import org.junit.jupiter.api.Test;

class ForecastTest {

    private final RungModel rungs = new RungModel(Blocks.LADDER);
    private final WriterCost writer = new WriterCost();
    private final Forecast forecast = new Forecast(rungs, writer, Objective.time());

    @Test
    void aRungDeliversTheSlowerOfItsCodecAndTheLinkTimesItsRatio() {
        double slowLink = 1e6;
        assertThat(forecast.goodput(3, slowLink)).isCloseTo(slowLink * rungs.ratio(3), within(1.0));
        double fastLink = 10e9;
        assertThat(forecast.goodput(3, fastLink)).isCloseTo(rungs.speed(3), within(rungs.speed(3) * 1e-6));
    }

    @Test
    void theBestRungFollowsTheLink() {
        assertThat(forecast.best(125e3, Blocks.TOP)).as("1 Mbit/s: the best ratio").isEqualTo(Blocks.TOP);
        assertThat(forecast.best(1.25e9, Blocks.TOP)).as("10 Gbit/s: raw").isEqualTo(0);
        int at100Mbit = forecast.best(12.5e6, Blocks.TOP);
        int at1Gbit = forecast.best(125e6, Blocks.TOP);
        assertThat(at100Mbit).isGreaterThan(at1Gbit).isLessThan(Blocks.TOP);
        assertThat(forecast.best(12.5e6, 2)).as("the ladder's top bounds it").isLessThanOrEqualTo(2);
    }

    @Test
    void aMixKeepsTheCodecAsBusyAsTheLinkWhereNeitherRungAloneDoes() {
        // Find a link between zstd:3 keeping up and zstd:9 keeping up: zstd:3 held back by the
        // link, zstd:9 by its codec.
        double link = (rungs.speed(4) / rungs.ratio(4) + rungs.speed(3) / rungs.ratio(3)) / 2;
        Forecast.Mix mix = forecast.mix(3, 4, link);
        assertThat(mix).isNotNull();
        assertThat(mix.share()).isStrictlyBetween(0.0, 1.0);
        double s = mix.share();
        double codecSeconds = (1 - s) / forecast.writerSpeed(3) + s / forecast.writerSpeed(4);
        double wireSeconds = (1 - s) / (link * rungs.ratio(3)) + s / (link * rungs.ratio(4));
        assertThat(codecSeconds).isCloseTo(wireSeconds, within(wireSeconds * 1e-9));
        assertThat(mix.goodput()).isGreaterThan(forecast.goodput(3, link)).isGreaterThan(forecast.goodput(4, link));
        assertThat(forecast.mix(3, 4, 1e3)).as("both held back by the link: no mix").isNull();
        assertThat(forecast.mix(3, 4, 10e9)).as("both held back by the codec: no mix").isNull();
    }
}
