package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Histories are withheld once the data stops finding itself in them, and tried again after a pause. */
class RepeatGateTest {

    private final RepeatGate gate = new RepeatGate();

    @Test
    void lendsUntilATrialOfColdBlocksFindsNothing() {
        observe(RepeatGate.TRIAL_BLOCKS - 1, true, false);
        assertThat(gate.lends()).isTrue();

        gate.observe(true, true, false);
        assertThat(gate.lends()).isFalse();
    }

    @Test
    void aWarmBlockStartsTheTrialAgain() {
        observe(RepeatGate.TRIAL_BLOCKS - 1, true, false);
        gate.observe(true, true, true);
        observe(RepeatGate.TRIAL_BLOCKS - 1, true, false);

        assertThat(gate.lends()).isTrue();
    }

    @Test
    void blocksTheLinkWithheldHistoriesFromDoNotCountTowardsTheTrial() {
        observe(RepeatGate.TRIAL_BLOCKS - 1, true, false);
        planned(1000, false);

        assertThat(gate.lends()).isTrue();
    }

    @Test
    void blocksAtRungsWithoutAHistoryEndATrialOnlyAfterLongerOnes() {
        planned(RepeatGate.TRIAL_PLANNED_BLOCKS - 1, true);
        assertThat(gate.lends()).isTrue();

        planned(1, true);
        assertThat(gate.lends()).isFalse();
    }

    @Test
    void withheldHistoriesAreTriedAgainAfterAPauseThatDoublesWhileTrialsFindNothing() {
        int pause = RepeatGate.FIRST_PAUSE;
        for (int trial = 0; trial < 8; trial++) {
            observe(RepeatGate.TRIAL_BLOCKS, true, false);
            assertThat(gate.lends()).as("withheld after trial %d", trial).isFalse();
            observe(pause - 1, false, false);
            assertThat(gate.lends()).isFalse();
            gate.observe(false, false, false);
            assertThat(gate.lends()).as("lent again after a pause of %d blocks", pause).isTrue();
            pause = Math.min(RepeatGate.MAX_PAUSE, 2 * pause);
        }
        assertThat(pause).isEqualTo(RepeatGate.MAX_PAUSE);
    }

    @Test
    void aTrialThatFindsARepeatKeepsHistoriesLentAndTheNextPauseShort() {
        observe(RepeatGate.TRIAL_BLOCKS, true, false);
        observe(RepeatGate.FIRST_PAUSE, false, false);
        observe(RepeatGate.TRIAL_BLOCKS, true, false);
        observe(2 * RepeatGate.FIRST_PAUSE, false, false); // a doubled pause
        observe(3, true, false);
        gate.observe(true, true, true);
        assertThat(gate.lends()).isTrue();

        observe(RepeatGate.TRIAL_BLOCKS, true, false);
        observe(RepeatGate.FIRST_PAUSE, false, false);
        assertThat(gate.lends()).as("the pause is short again after a repeat").isTrue();
    }

    /** Blocks lent a history ({@code lent}), or planned while histories were withheld; {@code warm} or not. */
    private void observe(int blocks, boolean lent, boolean warm) {
        for (int i = 0; i < blocks; i++) {
            gate.observe(lent, lent, warm);
        }
    }

    /** Blocks at a rung without a history, planned while histories were lent or not. */
    private void planned(int blocks, boolean whileLent) {
        for (int i = 0; i < blocks; i++) {
            gate.observe(whileLent, false, false);
        }
    }
}
