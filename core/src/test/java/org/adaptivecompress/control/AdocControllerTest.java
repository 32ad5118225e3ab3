package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** One test per branch of AdOC's rule, on scripted observations. */
class AdocControllerTest {

    private static final int PACKET = AdocController.DEFAULT_PACKET_SIZE;
    private static final int TOP = 7;
    private final AdocController controller = new AdocController();

    private static Observation at(int rung, long fifoAtStart, long fifoNow) {
        return Observation.builder().rung(rung).topRung(TOP).fifo(fifoAtStart, fifoNow).build();
    }

    @Test
    void startsAtRawLikeThePaper() {
        assertThat(controller.initialRung(TOP)).isZero();
    }

    @Test
    void halvesTheRungWhenTheFifoDrained() {
        assertThat(controller.nextRung(at(6, 50 * PACKET, 40 * PACKET))).isEqualTo(3);
        assertThat(controller.nextRung(at(5, 50 * PACKET, 49 * PACKET))).isEqualTo(2);
        assertThat(controller.nextRung(at(1, 20 * PACKET, 0))).isZero();
    }

    @Test
    void climbsOneRungWhenTheFifoGrewAndHoldsMoreThanTenPackets() {
        assertThat(controller.nextRung(at(3, 5 * PACKET, 10 * PACKET + 1))).isEqualTo(4);
    }

    @Test
    void keepsTheRungWhenTheFifoGrewButHoldsTenPacketsOrFewer() {
        assertThat(controller.nextRung(at(3, 2 * PACKET, 10 * PACKET))).isEqualTo(3);
    }

    @Test
    void keepsTheTopRungWhenTheFifoGrows() {
        assertThat(controller.nextRung(at(TOP, 20 * PACKET, 40 * PACKET))).isEqualTo(TOP);
    }

    @Test
    void keepsTheRungWhenTheFifoDidNotChange() {
        assertThat(controller.nextRung(at(4, 30 * PACKET, 30 * PACKET))).isEqualTo(4);
    }

    @Test
    void rejectsNonsenseConstants() {
        assertThatThrownBy(() -> new AdocController(0, 10)).hasMessageContaining("packetSize");
        assertThatThrownBy(() -> new AdocController(8192, -1)).hasMessageContaining("thresholdPackets");
    }

    @Test
    void controllersAreFoundByName() {
        assertThat(LevelControllers.byName("adoc").get()).isInstanceOf(AdocController.class);
        assertThat(LevelControllers.byName("fixed:3").get().initialRung(TOP)).isEqualTo(3);
        assertThat(LevelControllers.byName("fixed:30").get().initialRung(TOP)).isEqualTo(TOP);
        assertThatThrownBy(() -> LevelControllers.byName("pid")).hasMessageContaining("unknown controller 'pid'");
    }
}
