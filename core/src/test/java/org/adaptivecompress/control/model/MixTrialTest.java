package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.control.Observation;
import org.junit.jupiter.api.Test;

class MixTrialTest {

    private final MixTrial trial = new MixTrial();
    private long now = 1_000 * MS;

    /** Blocks of 128 KiB, one every {@code nanos}, for {@code millis} ms; whether the trial allowed the mix at the last. */
    private boolean run(long nanos, long millis, int settled, int lower) {
        boolean allowed = false;
        for (long t = 0; t < millis * MS; t += nanos) {
            now += nanos;
            trial.observe(Observation.builder().rung(settled).topRung(6).block(Blocks.BLOCK, Blocks.BLOCK / 4, false)
                    .nanoTime(now).build());
            allowed = trial.allows(settled, lower, now);
        }
        return allowed;
    }

    @Test
    void triesAMixOnlyAfterMeasuringTheRungAloneAndKeepsOneThatMeasuresBetter() {
        assertThat(trial.allows(2, 1, now)).as("nothing measured alone yet").isFalse();
        assertThat(run(MS, MixTrial.WINDOW_MILLIS - 10, 2, 1)).isFalse();
        assertThat(run(MS, 20, 2, 1)).as("the window alone is done: try the mix").isTrue();
        // The mix delivers a block every 0.9 ms against 1 ms alone: 11 % better.
        assertThat(run(900_000, 3 * MixTrial.WINDOW_MILLIS, 2, 1)).isTrue();
        assertThat(run(MS, 10 * MixTrial.WINDOW_MILLIS, 2, 1)).as("accepted: kept however it measures").isTrue();
    }

    @Test
    void refusesAMixThatMeasuresNoBetterForLongerEachTime() {
        untilAllowedIs(true); // the window alone
        untilAllowedIs(false); // the mix's window, no better than alone: refused
        long first = untilAllowedIs(true);
        untilAllowedIs(false);
        long second = untilAllowedIs(true);
        assertThat(first).isBetween(MixTrial.FIRST_BACKOFF_MILLIS - 10, MixTrial.FIRST_BACKOFF_MILLIS + 10);
        assertThat(second).isBetween(2 * MixTrial.FIRST_BACKOFF_MILLIS - 10, 2 * MixTrial.FIRST_BACKOFF_MILLIS + 10);
    }

    /** Blocks at zstd:1 a millisecond apart until the mix with lz4 is allowed ({@code true}) or not; the milliseconds it took. */
    private long untilAllowedIs(boolean allowed) {
        long millis = 0;
        while (run(MS, 1, 2, 1) != allowed) {
            millis++;
            assertThat(millis).isLessThan(60_000);
        }
        return millis;
    }

    @Test
    void aNewSettledRungStartsOverFromAWindowAlone() {
        run(MS, MixTrial.WINDOW_MILLIS + 10, 2, 1);
        assertThat(trial.allows(2, 1, now)).isTrue();
        assertThat(trial.allows(3, 2, now)).as("settled elsewhere: measure it alone first").isFalse();
        assertThat(run(MS, MixTrial.WINDOW_MILLIS - 10, 3, 2)).isFalse();
    }
}
