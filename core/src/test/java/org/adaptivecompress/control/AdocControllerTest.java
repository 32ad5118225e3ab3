package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.model.ModelController;
import org.junit.jupiter.api.Test;

/** One test per branch of AdOC's rule, on scripted observations. */
class AdocControllerTest {

    private static final int PACKET = AdocController.DEFAULT_PACKET_SIZE;
    private static final Ladder LADDER = Ladder.parse("raw,lz4,zstd:1,zstd:3,zstd:9,zstd:15,zstd:19,xz:6");
    private static final int TOP = LADDER.top();
    private final AdocController controller = new AdocController();

    private static Observation at(int rung, long fifoAtStart, long fifoNow) {
        return Observation.builder().rung(rung).topRung(TOP).fifo(fifoAtStart, fifoNow).build();
    }

    @Test
    void startsAtRawLikeThePaper() {
        assertThat(controller.initialRung(LADDER)).isZero();
    }

    @Test
    void halvesTheRungWhenTheFifoDrained() {
        assertThat(controller.decide(at(6, 50 * PACKET, 40 * PACKET)).rung()).isEqualTo(3);
        assertThat(controller.decide(at(5, 50 * PACKET, 49 * PACKET)).rung()).isEqualTo(2);
        assertThat(controller.decide(at(1, 20 * PACKET, 0)).rung()).isZero();
    }

    @Test
    void climbsOneRungWhenTheFifoGrewAndHoldsMoreThanTenPackets() {
        assertThat(controller.decide(at(3, 5 * PACKET, 10 * PACKET + 1)).rung()).isEqualTo(4);
    }

    @Test
    void keepsTheRungWhenTheFifoGrewButHoldsTenPacketsOrFewer() {
        assertThat(controller.decide(at(3, 2 * PACKET, 10 * PACKET)).rung()).isEqualTo(3);
    }

    @Test
    void keepsTheTopRungWhenTheFifoGrows() {
        assertThat(controller.decide(at(TOP, 20 * PACKET, 40 * PACKET)).rung()).isEqualTo(TOP);
    }

    @Test
    void namesTheBranchThatDecided() {
        assertThat(controller.decide(at(6, 50 * PACKET, 40 * PACKET)).reason()).isEqualTo(Reason.ADOC_DRAINED);
        assertThat(controller.decide(at(3, 5 * PACKET, 10 * PACKET + 1)).reason()).isEqualTo(Reason.ADOC_GREW);
        assertThat(controller.decide(at(4, 30 * PACKET, 30 * PACKET)).reason()).isEqualTo(Reason.ADOC_KEPT);
    }

    @Test
    void keepsTheRungWhenTheFifoDidNotChange() {
        assertThat(controller.decide(at(4, 30 * PACKET, 30 * PACKET)).rung()).isEqualTo(4);
    }

    @Test
    void rejectsNonsenseConstants() {
        assertThatThrownBy(() -> new AdocController(0, 10)).hasMessageContaining("packetSize");
        assertThatThrownBy(() -> new AdocController(8192, -1)).hasMessageContaining("thresholdPackets");
    }

    @Test
    void controllersAreFoundByName() {
        assertThat(LevelControllers.byName("adoc").get()).isInstanceOf(AdocController.class);
        assertThat(LevelControllers.byName("model").get()).isInstanceOf(ModelController.class);
        assertThat(LevelControllers.defaultController().get()).isInstanceOf(ModelController.class);
        assertThat(LevelControllers.byName("fixed:3").get().initialRung(LADDER)).isEqualTo(3);
        assertThat(LevelControllers.byName("fixed:30").get().initialRung(LADDER)).isEqualTo(TOP);
        assertThatThrownBy(() -> LevelControllers.byName("pid")).hasMessageContaining("unknown controller 'pid'");
    }
}
