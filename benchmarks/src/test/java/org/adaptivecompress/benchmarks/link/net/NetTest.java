package org.adaptivecompress.benchmarks.link.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Rates, the tbf settings and the relay's pacer, without touching the network. */
class NetTest {

    @Test
    void ratesParseInDecimalBitsAndLabelAsTheTablesShowThem() {
        assertThat(Rates.parse("10mbit")).isEqualTo(1_250_000);
        assertThat(Rates.parse("2.5gbit")).isEqualTo(312_500_000);
        assertThat(Rates.parse("unlimited")).isEqualTo(Rates.UNLIMITED);
        assertThat(Rates.label(Rates.parse("2.5gbit"))).isEqualTo("2.5 Gbit/s");
        assertThat(Rates.label(Rates.parse("300mbit"))).isEqualTo("300 Mbit/s");
        assertThat(Rates.label(Rates.UNLIMITED)).isEqualTo("unthrottled");
        assertThatThrownBy(() -> Rates.parse("fast")).hasMessageContaining("like 10mbit");
    }

    @Test
    void tbfRunsFasterThanThePayloadRateByTheHeadersWithABurstOfTwoMillisecondsAndADeepQueue() {
        Tbf slow = Tbf.of(Rates.parse("1mbit"));
        Tbf fast = Tbf.of(Rates.parse("10gbit"));

        assertThat(slow.frameBitsPerSecond()).isEqualTo(Math.round(1e6 * 1514 / 1448));
        assertThat(slow.burstBytes()).isEqualTo(4096);
        assertThat(slow.limitBytes()).isEqualTo(4096 + (1 << 20));
        assertThat((double) fast.burstBytes()).isCloseTo(1.25e9 * 1514 / 1448 * 0.002, within(1.0));
        assertThat(fast.limitBytes()).isEqualTo(fast.burstBytes() + Math.round(1.25e9 * 1514 / 1448 * 0.020));
        assertThat(slow.args()).containsExactly("tbf", "rate", slow.frameBitsPerSecond() + "bit", "burst", "4096",
                "limit", Long.toString(slow.limitBytes()));
    }

    @Test
    void aStepDownKeepsABucketBigEnoughForTheGsoPacketsTheFastRateQueuedWhole() {
        Tbf gigabit = Tbf.of(Rates.parse("1gbit"));
        Tbf tenMegabit = Tbf.of(Rates.parse("10mbit"));

        assertThat(gigabit.burstBytes()).isGreaterThan(Tbf.GSO_PACKET);
        assertThat(tenMegabit.following(gigabit).burstBytes()).isEqualTo(Tbf.GSO_PACKET);
        assertThat(gigabit.following(tenMegabit.following(gigabit)).burstBytes()).isEqualTo(gigabit.burstBytes());
        assertThat(tenMegabit.following(Tbf.of(Rates.parse("1mbit")))).isEqualTo(tenMegabit);
    }

    @Test
    void qdiscCountersParseFromTcAndAddUp() {
        QdiscCounters c = QdiscCounters.parse("qdisc tbf 8002: root refcnt 2 rate 20Mbit burst 32Kb lat 27.9ms \n"
                + " Sent 10675658 bytes 10237 pkt (dropped 3, overlimits 12522 requeues 0) \n backlog 0b 0p requeues 0");

        assertThat(c).isEqualTo(new QdiscCounters(10675658, 10237, 3));
        assertThat(c.meanPacket()).isEqualTo(1042);
        assertThat(c.minus(c).plus(c)).isEqualTo(c);
        assertThat(QdiscCounters.parse("nothing")).isEqualTo(QdiscCounters.ZERO);
    }

    @Test
    void thePacerLetsABucketThroughAtOnceThenSpacesChunksAtTheRate() {
        Pacer pacer = new Pacer(1_000_000);
        long now = 1_000_000_000L;

        assertThat(pacer.chunk()).isEqualTo(4096);
        assertThat(pacer.reserve(4096, now)).isLessThanOrEqualTo(0);
        assertThat(pacer.reserve(4096, now)).isEqualTo(4_096_000);
        pacer.setRate(2_000_000);
        assertThat(pacer.reserve(4000, now)).isEqualTo(4_096_000 + 2_000_000);
        pacer.setRate(Rates.UNLIMITED);
        assertThat(pacer.reserve(1 << 20, now)).isZero();
        assertThat(pacer.chunk()).isEqualTo(Pacer.MAX_CHUNK);
    }
}
