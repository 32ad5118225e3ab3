package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Link;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.adaptivecompress.benchmarks.scenario.Family;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every link must do for the benchmark, with real agents in their own JVMs: keep a rate,
 * carry our streams byte for byte, cut a hopeless transfer off and go on, and change its rate
 * mid-transfer when the receiver reports a mark. Times are asserted with generous bounds.
 */
@Timeout(120)
abstract class LinkHarnessContract {

    private static final long TWENTY_MEGABIT = Rates.parse("20mbit");
    private static final Scenario MIXED = new Scenario(Family.MIXED, 7001);

    Link link;
    Agents agents;

    /** Opens the link under test, or skips the test where it cannot be had. */
    abstract Link openLink() throws IOException;

    @BeforeEach
    void start() throws IOException {
        link = openLink();
        agents = Agents.start(link, null, new PrintStream(System.err, true));
    }

    @AfterEach
    void stop() {
        if (agents != null) {
            agents.close();
        }
        if (link != null) {
            link.close();
        }
    }

    @Test
    void keepsTheRateCarriesOurStreamsCutsOffAHopelessTransferAndGoesOn() throws IOException {
        long length = 1 << 20;
        agents.prepare(MIXED, 0, length);
        link.setRate(TWENTY_MEGABIT);

        Measurement.Run plain = agents.transfer(Contender.parse("plain"), length, 0, List.of());
        Measurement.Run adaptive = agents.transfer(Contender.parse("default"), length, 0, List.of());
        link.setRate(Rates.UNLIMITED);
        Measurement.Run cut = agents.transfer(Contender.parse("fixed:6"), length, 0.05, List.of());
        Measurement.Run after = agents.transfer(Contender.parse("fixed:1"), length, 10, List.of());

        double expected = (double) length / TWENTY_MEGABIT;
        assertThat(plain.finished()).isTrue();
        assertThat(plain.seconds()).as("1 MiB at 20 Mbit/s").isBetween(0.8 * expected, 1.6 * expected);
        assertThat(plain.inFlightBytes()).isPositive();
        assertThat(adaptive.finished()).isTrue();
        assertThat(adaptive.wireBytes()).isLessThan(length / 2);
        assertThat(adaptive.blocks()).hasSize(7);
        assertThat(adaptive.rungs()).isNotEmpty();
        assertThat(cut.aborted()).isTrue();
        assertThat(after.finished()).as("the agents recover from a cut-off transfer").isTrue();
    }

    @Test
    void changesTheRateWhenTheReceiverPassesAMark() throws IOException {
        long length = 8 << 20;
        agents.prepare(MIXED, 0, length);
        link.setRate(Rates.UNLIMITED);
        agents.transfer(Contender.parse("plain"), length, 0, List.of()); // warms the receiver's verifying loop
        link.setRate(Rates.parse("1gbit"));
        List<Agents.RateStep> steps = List.of(new Agents.RateStep(0.2, TWENTY_MEGABIT),
                new Agents.RateStep(0.8, Rates.parse("1gbit")));

        Measurement.Run run = agents.transfer(Contender.parse("plain"), length, 0, steps);

        // 8 MiB at 1 Gbit/s take 0.07 s, the 4.8 MiB between the marks at 20 Mbit/s 2 s. What sits
        // in socket buffers when the receiver passes the first mark (megabytes, twice over with a
        // relay in the path) has crossed at the old rate, so the span is wide enough to outlast it.
        assertThat(run.finished()).isTrue();
        assertThat(run.seconds()).isGreaterThan(0.3);
        assertThat(run.steps()).hasSize(2);
        assertThat(run.steps()[0]).isLessThan(run.steps()[1]);
        assertThat(run.samples()).hasSize((int) (length / Agents.SAMPLE_BYTES));
    }
}
