package org.adaptivecompress.control.model;

import static org.adaptivecompress.control.model.Blocks.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.adaptivecompress.control.model.LinkEstimate.State;
import org.junit.jupiter.api.Test;

class LinkEstimateTest {

    private final Blocks blocks = new Blocks();
    private final LinkEstimate link = new LinkEstimate();

    /** Metered spans of {@code bytes} every {@code millis} ms, {@code count} of them. */
    private void spans(int count, long bytes, long millis) {
        for (int i = 0; i < count; i++) {
            link.observe(blocks.after(millis * MS).at(3, Blocks.span(bytes, millis * MS)));
        }
    }

    @Test
    void isUnknownUntilTheSinkHasBeenFullLongEnoughToMeasure() {
        link.observe(blocks.at(3, Blocks.free(100_000)));
        assertThat(link.state()).isEqualTo(State.UNKNOWN);
        assertThat(link.rate()).isNaN();
        spans(1, 125_000, 10); // 12.5 MB/s, but one span of 10 ms: a hiccup could stall one write
        assertThat(link.state()).isEqualTo(State.UNKNOWN);
        spans(1, 125_000, 10);
        assertThat(link.state()).isEqualTo(State.MEASURED);
        assertThat(link.rate()).isCloseTo(12.5e6, within(1e3));
    }

    @Test
    void measuresOverTheNewestSpansCoveringTheWindow() {
        spans(20, 125_000, 10); // 12.5 MB/s for 200 ms
        spans(5, 250_000, 10); // then 25 MB/s for 50 ms: within 2x, no jump
        // The window is the newest spans covering 100 ms: five at each rate.
        assertThat(link.rate()).isCloseTo((5 * 125_000 + 5 * 250_000) / 0.1, within(1e3));
        assertThat(link.droppedNow()).isFalse();
        assertThat(link.roseNow()).isFalse();
    }

    @Test
    void aMeteredSpanFarSlowerIsADropAtOnce() {
        spans(20, 1_250_000, 10); // 125 MB/s
        link.observe(blocks.after(500 * MS).at(3, Blocks.span(1_250_000, 500 * MS))); // 2.5 MB/s
        assertThat(link.droppedNow()).isTrue();
        assertThat(link.state()).isEqualTo(State.MEASURED);
        assertThat(link.rate()).isCloseTo(2.5e6, within(1e3));
    }

    @Test
    void aShortSlowSpanIsAHiccupNotADrop() {
        spans(20, 1_250_000, 10);
        // 37 MB/s, under a third of the rate, but for 19 ms: a descheduled receiver can do that.
        link.observe(blocks.after(19 * MS).at(3, Blocks.span(700_000, 19 * MS)));
        assertThat(link.droppedNow()).isFalse();
    }

    @Test
    void aWriteStalledFarLongerThanTheSpansIsADrop() {
        spans(20, 1_250_000, 10);
        link.observe(blocks.after(100 * MS).at(3, Blocks.stalled(250_000, 100 * MS))); // at most 2.5 MB/s
        assertThat(link.droppedNow()).isTrue();
        assertThat(link.rate()).isCloseTo(2.5e6, within(1e3));
    }

    @Test
    void aMeteredSpanFarFasterIsARiseToALowerBound() {
        spans(20, 125_000, 10); // 12.5 MB/s
        link.observe(blocks.after(10 * MS).at(3, Blocks.span(1_250_000, 10 * MS))); // 125 MB/s
        assertThat(link.roseNow()).isTrue();
        assertThat(link.boundedNow()).isTrue();
        assertThat(link.state()).isEqualTo(State.AT_LEAST);
        assertThat(link.rate()).isCloseTo(125e6, within(1e3));
    }

    @Test
    void unmeteredDrainIsAveragedOverTheWindowNeverReadAsADropOrARise() {
        // A quota acknowledging in bursts: 15 KB every 80 ms, then nothing for a second.
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 12; i++) {
                link.observe(blocks.after(80 * MS).unmetered(3, 200_000, 15_000));
                assertThat(link.droppedNow()).isFalse();
                assertThat(link.roseNow()).isFalse();
            }
            link.observe(blocks.after(1_000 * MS).unmetered(3, 200_000, 0));
            assertThat(link.droppedNow()).isFalse();
        }
        assertThat(link.state()).isEqualTo(State.MEASURED);
        assertThat(link.rate()).isBetween(0.01e6, 0.2e6);
    }

    @Test
    void aLinkThatCarriedNothingMeasuresSlowerThanAnyCodec() {
        for (int i = 0; i < 5; i++) {
            link.observe(blocks.after(10 * MS).unmetered(3, 200_000 + i, 0));
        }
        assertThat(link.state()).isEqualTo(State.MEASURED);
        assertThat(link.rate()).isEqualTo(LinkEstimate.MIN_RATE);
    }

    @Test
    void bytesTakenWithoutFillingBoundTheRateFromBelowOnceMoreThanANewBufferCouldHide() {
        // 1 MB/s taken at once in 64 KiB writes, the sink never full: a socket's first buffer
        // may hold the first of them, so no bound until twice what it may hide.
        long taken = 0;
        while (taken < 2 * LinkEstimate.FIRST_BUFFER_BYTES - 65_536) {
            link.observe(blocks.after(64 * MS).at(3, Blocks.free(65_536)));
            taken += 65_536;
            assertThat(link.state()).isEqualTo(State.UNKNOWN);
        }
        link.observe(blocks.after(64 * MS).at(3, Blocks.free(65_536)));
        assertThat(link.state()).isEqualTo(State.AT_LEAST);
        assertThat(link.boundedNow()).isTrue();
        assertThat(link.rate()).as("never above what was taken").isLessThanOrEqualTo(1.03e6).isPositive();
        assertThat(link.outranStream()).as("a buffer of up to 4 MiB may still hold it").isFalse();
    }

    @Test
    void theLinkOutranTheStreamOnceItTookTwiceTheLargestBuffer() {
        long taken = 0;
        while (!link.outranStream() && taken < 4 * LinkEstimate.MAX_HIDDEN_BYTES) {
            link.observe(blocks.after(1 * MS).at(3, Blocks.free(131_072)));
            taken += 131_072;
        }
        assertThat(link.outranStream()).isTrue();
        assertThat(taken).isGreaterThanOrEqualTo(2 * LinkEstimate.MAX_HIDDEN_BYTES);
        assertThat(link.state()).isEqualTo(State.AT_LEAST);
        assertThat(link.rate()).isGreaterThan(50e6).isLessThanOrEqualTo(131.1e6);
    }

    @Test
    void aFullMomentEarlyInTheStreamDoesNotBoundWhatTheGrowingBufferTakesNext() {
        // Slow start: the sink fills once at 5 MB/s, then takes 64 KiB every 0.3 ms while the
        // kernel grows its buffer, far faster than the link. Until the stream has taken more
        // than the largest buffer could hide, that is no evidence of a faster link.
        spans(4, 50_000, 10);
        assertThat(link.state()).isEqualTo(State.MEASURED);
        long taken = 0;
        while (taken < LinkEstimate.MAX_HIDDEN_BYTES) {
            link.observe(blocks.after(MS * 3 / 10).at(3, Blocks.free(65_536)));
            taken += 65_536;
            assertThat(link.boundedNow()).as("after %d bytes", taken).isFalse();
            assertThat(link.outranStream()).isFalse();
        }
    }

    @Test
    void onceSlowStartIsOverAFullMomentLeavesOnlyASpansRoomHidden() {
        spans(4 * (int) (LinkEstimate.GROWING_BYTES / 50_000), 50_000, 10);
        long taken = 0;
        while (!link.boundedNow() && taken < LinkEstimate.MAX_HIDDEN_BYTES) {
            link.observe(blocks.after(1 * MS).at(3, Blocks.free(65_536)));
            taken += 65_536;
        }
        assertThat(link.boundedNow()).isTrue();
        assertThat(taken).isLessThan(LinkEstimate.MAX_HIDDEN_BYTES / 4);
    }

    @Test
    void aMeasurementNoSpanConfirmsForLongBecomesALowerBound() {
        spans(20, 125_000, 10);
        link.observe(blocks.after(LinkEstimate.MIN_STALE_MILLIS * MS / 2).at(3, Blocks.free(10_000)));
        assertThat(link.state()).isEqualTo(State.MEASURED);
        link.observe(blocks.after(LinkEstimate.MIN_STALE_MILLIS * MS).at(3, Blocks.free(10_000)));
        assertThat(link.state()).isEqualTo(State.AT_LEAST);
        assertThat(link.boundedNow()).isTrue();
        assertThat(link.rate()).as("what was measured, kept as the bound").isCloseTo(12.5e6, within(1e3));
    }
}
