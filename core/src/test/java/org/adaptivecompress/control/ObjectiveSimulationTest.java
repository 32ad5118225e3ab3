package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.adaptivecompress.control.model.ModelController;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.testing.LinkSimulation;
import org.adaptivecompress.testing.LinkSimulation.Profile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The model controller under the objectives other than time, in the deterministic simulation of
 * {@link ControllerSimulationTest}: within a CPU budget it keeps compression under the budget
 * and finishes with the best fixed rung that fits it; for cost it spends within a few percent
 * of the cheapest fixed rung.
 */
class ObjectiveSimulationTest {

    private static final int BLOCK = 128 * 1024;
    /** A cloud core's price per second (about 0.04 per core-hour). */
    private static final double CORE_SECOND = 0.04 / 3600;

    private static LinkSimulation simulation() {
        return new LinkSimulation(BLOCK, 1 << 20, LinkSimulation.LINUX, 0.05, 42);
    }

    private static ModelController model(Objective objective) {
        ModelController c = new ModelController();
        c.objective(objective);
        return c;
    }

    /** Seconds of one core the run's codecs took: each block at its rung's speed. */
    private static double cpuSeconds(LinkSimulation.Result r, Profile p) {
        double s = 0;
        for (int i = 0; i < r.blocks(); i++) {
            s += BLOCK / p.speed(r.rung(i));
        }
        return s;
    }

    private static double cost(LinkSimulation.Result r, Profile p, double egressPerGigabyte) {
        double wire = 0;
        for (int i = 0; i < r.blocks(); i++) {
            wire += BLOCK / p.ratio(r.rung(i));
        }
        return wire / 1e9 * egressPerGigabyte + cpuSeconds(r, p) * CORE_SECOND;
    }

    static Stream<Arguments> budgetCells() {
        List<Arguments> all = new ArrayList<>();
        String[] names = {"text", "json", "binary"};
        Profile[] profiles = {ControllerSimulationTest.TEXT, ControllerSimulationTest.JSON, ControllerSimulationTest.BINARY};
        for (int k = 0; k < profiles.length; k++) {
            for (double link : new double[] {1.25e6, 12.5e6, 125e6}) {
                all.add(Arguments.of(names[k], profiles[k], link));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} over {2} B/s")
    @MethodSource("budgetCells")
    void aCpuBudgetIsKeptAndTheBestRungWithinItFound(String kind, Profile profile, double link) {
        double budget = 0.3;
        // About five seconds of the best rung, as ControllerSimulationTest runs: the start-up is a small part.
        int blocks = (int) Math.max(200, Math.min(4000, 5 * profile.delivered(profile.bestRung(link), link) / BLOCK));
        LinkSimulation.Result run = simulation().run(model(Objective.cpuBudget(budget)), blocks, i -> profile, i -> link);
        double bestFitting = Double.POSITIVE_INFINITY;
        for (int r = 0; r < profile.size(); r++) {
            LinkSimulation.Result fixed = simulation().run(new FixedController(r), blocks, i -> profile, i -> link);
            if (cpuSeconds(fixed, profile) <= budget * fixed.seconds()) {
                bestFitting = Math.min(bestFitting, fixed.seconds());
            }
        }

        assertThat(cpuSeconds(run, profile) / run.seconds()).as("cores used; " + run.trace())
                .isLessThanOrEqualTo(budget * 1.1);
        assertThat(run.seconds()).as(run.trace()).isLessThanOrEqualTo(1.05 * bestFitting);
    }

    @Test
    void withoutABudgetTheSameLinkTakesACostlierRung() {
        Profile text = ControllerSimulationTest.TEXT;
        LinkSimulation.Result time = simulation().run(new ModelController(), 600, i -> text, i -> 1.25e6);
        LinkSimulation.Result budget = simulation().run(model(Objective.cpuBudget(0.3)), 600, i -> text, i -> 1.25e6);

        assertThat(cpuSeconds(time, text) / time.seconds()).as("time alone uses more than the budget")
                .isGreaterThan(0.33);
        assertThat(cpuSeconds(budget, text) / budget.seconds()).isLessThanOrEqualTo(0.33);
    }

    @Test
    void aBudgetHoldsOnAverageSoCheapBlocksPayForDearerOnes() {
        // JSON over 1 Gbit/s: LZ4 alone would use about half a core, so no compressing rung fits 0.3
        // block by block; spending the budget on some blocks beats sending all of them raw.
        Profile json = ControllerSimulationTest.JSON;
        double link = 125e6;
        int blocks = 3000;
        LinkSimulation.Result raw = simulation().run(new FixedController(0), blocks, i -> json, i -> link);
        LinkSimulation.Result lz4 = simulation().run(new FixedController(1), blocks, i -> json, i -> link);
        LinkSimulation.Result budget = simulation().run(model(Objective.cpuBudget(0.3)), blocks, i -> json, i -> link);

        assertThat(cpuSeconds(lz4, json) / lz4.seconds()).as("LZ4 alone").isGreaterThan(0.33);
        assertThat(cpuSeconds(budget, json) / budget.seconds()).as(budget.trace()).isLessThanOrEqualTo(0.33);
        assertThat(budget.seconds()).as(budget.trace()).isLessThan(raw.seconds() / 1.2);
    }

    @ParameterizedTest(name = "egress {0} per GB")
    @ValueSource(doubles = {0.01, 0.09})
    void costComesWithinAFewPercentOfTheCheapestFixedRungOnEveryLink(double egress) {
        for (Profile profile : new Profile[] {ControllerSimulationTest.TEXT, ControllerSimulationTest.JSON}) {
            for (double link : new double[] {1.25e6, 12.5e6, 125e6, 1.25e9}) {
                int blocks = 600;
                LinkSimulation.Result run = simulation().run(model(Objective.cost(egress, CORE_SECOND, 0)), blocks,
                        i -> profile, i -> link);
                double cheapest = Double.POSITIVE_INFINITY;
                for (int r = 0; r < profile.size(); r++) {
                    cheapest = Math.min(cheapest,
                            cost(simulation().run(new FixedController(r), blocks, i -> profile, i -> link), profile, egress));
                }
                assertThat(cost(run, profile, egress)).as("link %.0f B/s: %s", link, run.trace())
                        .isLessThanOrEqualTo(1.05 * cheapest);
            }
        }
    }

    @Test
    void pricingTheReceiversDecodingKeepsTheSenderOffXz() {
        Profile json = ControllerSimulationTest.JSON;
        int xz = json.size() - 1; // the default ladder's top rung, xz:6: the smallest, and 35x slower to decode than zstd
        // At 1 per GB sent, xz's 10 % smaller output is the cheapest; the receiver's CPU at 100 cloud cores' price is not.
        LinkSimulation.Result senderOnly = simulation().run(model(Objective.cost(1, CORE_SECOND, 0)), 300,
                i -> json, i -> 1.25e6);
        LinkSimulation.Result both = simulation().run(model(Objective.cost(1, CORE_SECOND, 100 * CORE_SECOND, 0)), 300,
                i -> json, i -> 1.25e6);

        assertThat(senderOnly.blocksAt(xz)).as(senderOnly.trace()).isGreaterThan(200);
        assertThat(both.blocksAt(xz)).as(both.trace()).isLessThan(10);
    }

    @Test
    void aDeadlineIsMetAtAboutTheCostOfTheCheapestFixedRungThatMeetsIt() {
        Profile json = ControllerSimulationTest.JSON;
        double link = 12.5e6;
        int blocks = 400;
        Objective cost = Objective.cost(0.09, CORE_SECOND, 0);
        LinkSimulation.Result unbounded = simulation().run(model(cost), blocks, i -> json, i -> link);
        double deadline = unbounded.seconds() / 2; // the cheapest rung alone takes twice as long
        Objective withDeadline = cost.withDeadline(Duration.ofNanos((long) (deadline * 1e9)))
                .forLength((long) blocks * BLOCK);

        LinkSimulation.Result run = simulation().run(model(withDeadline), blocks, i -> json, i -> link);
        double cheapestInTime = Double.POSITIVE_INFINITY;
        for (int r = 0; r < json.size(); r++) {
            LinkSimulation.Result fixed = simulation().run(new FixedController(r), blocks, i -> json, i -> link);
            if (fixed.seconds() <= deadline) {
                cheapestInTime = Math.min(cheapestInTime, cost(fixed, json, 0.09));
            }
        }
        assertThat(run.seconds()).as(run.trace()).isLessThanOrEqualTo(deadline);
        assertThat(cost(run, json, 0.09)).as(run.trace()).isLessThanOrEqualTo(1.05 * cheapestInTime);
    }

    @Test
    void aDeadlineNeedsTheTransfersLength() {
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().objective("cost:egress=0.09,deadline=30s").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("forLength");
        assertThat(AdaptiveCompressionOptions.builder().objective(Objective.parse("cost:egress=0.09,deadline=30s")
                .forLength(1 << 30)).build().objective().deadline()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void costWithoutAFloorDoesNotWaitForTheLink() {
        Profile text = ControllerSimulationTest.TEXT;
        LinkSimulation.Result time = simulation().run(new ModelController(), 50, i -> text, i -> 1.25e6);
        LinkSimulation.Result cost = simulation().run(model(Objective.cost(0.09, CORE_SECOND, 0)), 50, i -> text,
                i -> 1.25e6);

        assertThat(time.decision(0).reason()).isEqualTo(Reason.STARTUP);
        assertThat(cost.decision(0).reason()).isNotEqualTo(Reason.STARTUP);
    }

    @Test
    void aCostFloorKeepsTheRateUp() {
        Profile text = ControllerSimulationTest.TEXT;
        double floor = 100e6;
        LinkSimulation.Result run = simulation().run(model(Objective.cost(0.09, CORE_SECOND, floor)), 2000,
                i -> text, i -> 1.25e9);
        LinkSimulation.Result unbounded = simulation().run(model(Objective.cost(0.09, CORE_SECOND, 0)), 2000,
                i -> text, i -> 1.25e9);

        assertThat(run.throughput()).as(run.trace()).isGreaterThan(0.9 * floor);
        assertThat(unbounded.throughput()).as("the cheapest rung alone is slower").isLessThan(floor);
    }

    @Test
    void onlyTheModelControllerTakesAnObjectiveOtherThanTime() {
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().controller("adoc").objective("cpu-budget:0.3").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the model controller");
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().controller("fixed:2").objective("cost:egress=0.05")
                .build()).isInstanceOf(IllegalArgumentException.class);
        assertThat(AdaptiveCompressionOptions.builder().controller("fixed:2").objective("time").build().objective())
                .isEqualTo(Objective.time());
    }
}
