package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Links;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.adaptivecompress.benchmarks.scenario.ScenarioSet;
import org.junit.jupiter.api.Test;

class LinkConfigTest {

    @Test
    void aFullRunIsTheHeldOutSetAtEveryRateWithEveryContenderAndEveryCell() {
        LinkConfig c = LinkConfig.parse();

        assertThat(c.set()).isEqualTo(ScenarioSet.HELD_OUT);
        assertThat(c.scenarios()).isEqualTo(ScenarioSet.HELD_OUT.scenarios());
        assertThat(c.rates()).hasSize(9).startsWith(Rates.parse("1mbit")).endsWith(Rates.UNLIMITED);
        assertThat(c.contenders()).isEqualTo(Contender.defaults());
        assertThat(c.cells()).containsExactlyInAnyOrder(Measurement.Kind.values());
        assertThat(c.link()).isEqualTo(Links.Choice.AUTO);
    }

    @Test
    void inputsAreTwoSecondsOfRawBetweenOneMebibyteAndOneGibibyte() {
        LinkConfig.Sizes s = LinkConfig.parse().sizes();

        assertThat(s.lengthFor(Rates.parse("1mbit"))).isEqualTo(1 << 20);
        assertThat(s.lengthFor(Rates.parse("100mbit"))).isEqualTo(25_000_000);
        assertThat(s.lengthFor(Rates.parse("10gbit"))).isEqualTo(1L << 30);
        assertThat(s.lengthFor(Rates.UNLIMITED)).isEqualTo(1L << 30);
        assertThat(s.deadlineAfter(0.5)).isEqualTo(3.0);
        assertThat(s.deadlineAfter(10)).isEqualTo(25.0);
        assertThat(s.runsAfter(1.0, Rates.parse("1gbit"))).isEqualTo(3);
        assertThat(s.runsAfter(1.0, Rates.UNLIMITED)).isEqualTo(5);
        assertThat(s.runsAfter(2.0, Rates.UNLIMITED)).isEqualTo(1);
    }

    @Test
    void quickShrinksEverythingAndOptionsOverride() {
        LinkConfig quick = LinkConfig.parse("--quick");
        LinkConfig chosen = LinkConfig.parse("--set", "tuning", "--rates", "10mbit,2.5gbit", "--contenders",
                "default,controller:adoc", "--link", "relay", "--cells", "step,busy", "--repeats", "7");

        assertThat(quick.rates()).hasSize(2);
        assertThat(quick.scenarios()).hasSize(4);
        assertThat(quick.contenders()).hasSize(6);
        assertThat(quick.sizes().maxLength()).isLessThanOrEqualTo(4 << 20);
        assertThat(chosen.set()).isEqualTo(ScenarioSet.TUNING);
        assertThat(chosen.rates()).containsExactly(Rates.parse("10mbit"), Rates.parse("2.5gbit"));
        assertThat(chosen.contenders()).extracting(Contender::id).containsExactly("default", "controller:adoc");
        assertThat(chosen.link()).isEqualTo(Links.Choice.RELAY);
        assertThat(chosen.cells()).containsExactlyInAnyOrder(Measurement.Kind.STEP, Measurement.Kind.BUSY);
        assertThat(chosen.sizes().repeats()).isEqualTo(7);
    }

    @Test
    void badOptionsAreRefusedByName() {
        assertThatThrownBy(() -> LinkConfig.parse("--repeats", "0")).hasMessageContaining("--repeats needs a positive");
        assertThatThrownBy(() -> LinkConfig.parse("--rates")).hasMessageContaining("--rates needs a value");
        assertThatThrownBy(() -> LinkConfig.parse("--link", "wifi")).hasMessageContaining("auto, kernel or relay");
        assertThatThrownBy(() -> LinkConfig.parse("--fast")).hasMessageContaining("unknown option '--fast'");
    }
}
