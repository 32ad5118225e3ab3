package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ObjectiveTest {

    @Test
    void specStringsParseAndPrintBack() {
        assertThat(Objective.parse("time")).isEqualTo(Objective.time());
        assertThat(Objective.parse(" CPU-Budget:0.3 ")).isEqualTo(Objective.cpuBudget(0.3));
        Objective cost = Objective.parse("cost:egress=0.05,cpu=0.00001,floor=100mbit");
        assertThat(cost.kind()).isEqualTo(Objective.Kind.COST);
        assertThat(cost.pricePerGigabyte()).isEqualTo(0.05);
        assertThat(cost.pricePerCpuSecond()).isEqualTo(0.00001);
        assertThat(cost.floorBytesPerSecond()).isEqualTo(12.5e6);
        assertThat(Objective.parse("cost:egress=0.05,floor=20MB").floorBytesPerSecond()).isEqualTo(20e6);
        assertThat(Objective.parse("cost:decode=0.001").pricePerDecodeCpuSecond()).isEqualTo(0.001);
        assertThat(cost.pricePerDecodeCpuSecond()).isZero();
        for (Objective o : new Objective[] {Objective.time(), Objective.cpuBudget(1.5), cost,
                Objective.cost(0, 0.0001, 0), Objective.parse("cost:egress=0.05,cpu=0.00001,decode=0.00002"),
                Objective.parse("cost:egress=0.05,deadline=90s")}) {
            assertThat(Objective.parse(o.toString())).isEqualTo(o);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "cpu-budget:0", "cpu-budget:-1", "cpu-budget:x", "cost:", "cost:egress=0",
            "cost:egress=-1", "cost:egress=0,cpu=0,decode=0", "cost:decode=-1", "cost:egress=1,deadline=soon",
            "cost:egress=1,deadline=0s", "cost:egress=0.05,disk=1", "cost:egress", "cost:egress=0.05,floor=fast"})
    void badSpecsAreRefusedNamingTheSpec(String spec) {
        assertThatThrownBy(() -> Objective.parse(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(spec.isEmpty() ? "objective" : spec);
    }

    @Test
    void aDeadlineRaisesTheFloorToWhatIsLeftOverTheTimeLeft() {
        Objective o = Objective.parse("cost:egress=0.05,floor=8MB,deadline=2m").forLength(1_200_000_000L);
        assertThat(o.deadline()).isEqualTo(java.time.Duration.ofMinutes(2));
        // 1.2 GB in 120 s: 10 MB/s at the start; after 600 MB in 90 s, 600 MB in 30 s: 20 MB/s.
        assertThat(o.floorBytesPerSecond(0, 0)).isEqualTo(10e6);
        assertThat(o.floorBytesPerSecond(600_000_000L, 90_000_000_000L)).isEqualTo(20e6);
        assertThat(o.floorBytesPerSecond(1_150_000_000L, 0)).as("never below the floor").isEqualTo(8e6);
        assertThat(o.floorBytesPerSecond(1_000_000_000L, 121_000_000_000L)).isInfinite();
        assertThat(o.floorBytesPerSecond(1_200_000_000L, 121_000_000_000L)).as("done").isEqualTo(8e6);
        assertThat(Objective.parse("cost:egress=1,deadline=500ms").deadline().toMillis()).isEqualTo(500);
        assertThat(Objective.parse("cost:egress=1,deadline=1h").deadline().toMinutes()).isEqualTo(60);
    }

    @Test
    void theReceiversDecodingIsPricedWhenAsked() {
        Objective cost = Objective.cost(0.09, 0.00001, 0.00002, 0);
        // Plus 0.00002 per CPU-second at 1e9 decoded bytes per CPU-second.
        assertThat(cost.costPerInputByte(3, 1e8, 1e9)).isCloseTo(3e-11 + 1e-13 + 2e-14,
                org.assertj.core.data.Offset.offset(1e-20));
    }

    @Test
    void aByteCostsItsShareOfTheWireAndItsCpu() {
        Objective cost = Objective.cost(0.09, 0.00001, 0);
        // Ratio 3 at 100 MB per CPU-second: 0.09 / 1e9 / 3 + 0.00001 / 1e8.
        assertThat(cost.costPerInputByte(3, 1e8, 1e9)).isCloseTo(3e-11 + 1e-13, org.assertj.core.data.Offset.offset(1e-20));
    }
}
