package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GoodputMeterTest {

    private static final int BLOCK = 128 * 1024;
    private static final double LINK = 100e6;

    private final GoodputMeter meter = new GoodputMeter();
    private long nanos;
    private long drained;
    private long block;

    @BeforeEach
    void threeRungs() {
        meter.size(3);
    }

    @Test
    void aRungThatDeliveredLessIsMeasuredWorse() {
        hold(0, 1_000_000, BLOCK, 20); // 128 KiB per ms: 131 MB/s
        hold(1, 2_000_000, BLOCK / 3, 20); // half that

        assertThat(meter.measuredWorse(1, 0, block, LINK)).isTrue();
        assertThat(meter.measuredWorse(0, 1, block, LINK)).isFalse();
    }

    @Test
    void aRungMeasuredLatelyBelowARateIsMeasuredBelowIt() {
        hold(1, 1_000_000, BLOCK / 3, 20); // 128 KiB of input per ms: 131 MB/s

        assertThat(meter.measuredBelow(1, 140e6, block, LINK)).isTrue();
        assertThat(meter.measuredBelow(1, 120e6, block, LINK)).isFalse();
        assertThat(meter.measuredBelow(0, 140e6, block, LINK)).as("never measured").isFalse();
        assertThat(meter.measuredBelow(1, 140e6, block + GoodputMeter.FRESH_BLOCKS + 1, LINK)).as("old").isFalse();
    }

    @Test
    void aRunTooShortToSampleMeasuresNothing() {
        hold(0, 1_000_000, BLOCK, 20);
        hold(1, 2_000_000, BLOCK / 3, GoodputMeter.MIN_BLOCKS - 1);
        hold(0, 1_000_000, BLOCK, 20);

        assertThat(meter.measuredWorse(1, 0, block, LINK)).isFalse();
    }

    @Test
    void aBacklogTheLinkHasNotTakenIsNotGoodput() {
        // Rung 1 compresses twice as fast as rung 0 is sent, but its frames pile up in the FIFO:
        // only a quarter of them drained, so it delivered half of what rung 0 did.
        hold(0, 1_000_000, BLOCK, 20);
        holdWithBacklog(1, 500_000, BLOCK, 20, 0.25);

        assertThat(meter.measuredWorse(1, 0, block, LINK)).isTrue();
    }

    @Test
    void measurementsExpireWithAgeWithADifferentLinkAndWithNewData() {
        hold(0, 1_000_000, BLOCK, 20);
        hold(1, 2_000_000, BLOCK / 3, 20);

        assertThat(meter.measuredWorse(1, 0, block, LINK * GoodputMeter.LINK_DRIFT * 1.1)).as("link faster").isFalse();
        assertThat(meter.measuredWorse(1, 0, block, LINK / GoodputMeter.LINK_DRIFT / 1.1)).as("link slower").isFalse();
        assertThat(meter.measuredWorse(1, 0, block, Double.NaN)).as("link never measured").isFalse();
        assertThat(meter.measuredWorse(1, 0, block + GoodputMeter.FRESH_BLOCKS + 1, LINK)).as("old").isFalse();
        meter.forget();
        assertThat(meter.measuredWorse(1, 0, block, LINK)).as("forgotten").isFalse();
    }

    @Test
    void aRefutedSampleStaysValidLongerEachTimeAndOnAFasterLinkIfItCompressedMore() {
        hold(1, 1_000_000, BLOCK / 3, 20);
        long sampled = block;

        meter.keepVerdict(1, true, true);
        assertThat(meter.isFresh(1, sampled + 2 * GoodputMeter.FRESH_BLOCKS, LINK)).as("refuted once").isTrue();
        assertThat(meter.isFresh(1, sampled + 2 * GoodputMeter.FRESH_BLOCKS + 1, LINK)).isFalse();
        meter.keepVerdict(1, true, true);
        assertThat(meter.isFresh(1, sampled + 4 * GoodputMeter.FRESH_BLOCKS, LINK)).as("refuted twice").isTrue();
        for (int i = 0; i < 10; i++) {
            meter.keepVerdict(1, true, true);
        }
        assertThat(meter.isFresh(1, sampled + GoodputMeter.LONGEST_VERDICT, LINK)).as("at the limit").isTrue();
        assertThat(meter.isFresh(1, sampled + GoodputMeter.LONGEST_VERDICT + 1, LINK)).isFalse();
        assertThat(meter.isFresh(1, sampled + 2, LINK * GoodputMeter.LINK_DRIFT * 10)).as("link faster").isTrue();
        assertThat(meter.isFresh(1, sampled + 2, LINK / GoodputMeter.LINK_DRIFT / 1.1)).as("link slower").isFalse();

        meter.keepVerdict(1, true, false);
        assertThat(meter.isFresh(1, sampled + 2, LINK * GoodputMeter.LINK_DRIFT * 1.1))
                .as("refuted, compressing less, link faster").isFalse();
        meter.keepVerdict(1, false, true);
        assertThat(meter.isFresh(1, sampled + GoodputMeter.FRESH_BLOCKS + 1, LINK)).as("confirmed").isFalse();
        assertThat(meter.isFresh(1, sampled + 2, LINK * GoodputMeter.LINK_DRIFT * 1.1)).as("confirmed, link faster").isFalse();
        meter.keepVerdict(1, true, true);
        meter.forget();
        hold(1, 1_000_000, BLOCK / 3, 20);
        assertThat(meter.isFresh(1, block + GoodputMeter.FRESH_BLOCKS + 1, LINK)).as("new data").isFalse();
        assertThat(meter.isFresh(1, block, LINK * GoodputMeter.LINK_DRIFT * 1.1)).as("new data, link faster").isFalse();
    }

    /** {@code blocks} blocks at {@code rung}, one per {@code nanosPerBlock}, each fully drained. */
    private void hold(int rung, long nanosPerBlock, int stored, int blocks) {
        holdWithBacklog(rung, nanosPerBlock, stored, blocks, 1.0);
    }

    private void holdWithBacklog(int rung, long nanosPerBlock, int stored, int blocks, double drainedShare) {
        for (int i = 0; i <= blocks; i++) {
            nanos += nanosPerBlock;
            drained += (long) ((stored + 20) * drainedShare);
            meter.observe(Observation.builder().rung(rung).topRung(2).block(BLOCK, stored, false)
                    .drainedBytes(drained).nanoTime(nanos).build(), rung, ++block, LINK);
        }
    }
}
