package org.adaptivecompress.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.control.LinkSample;
import org.junit.jupiter.api.Test;

class SinkMeterTest {

    private static final long MS = 1_000_000;

    private long now = 1_000 * MS;
    private final SinkMeter meter = new SinkMeter(now);

    /** A write of {@code bytes} that returns after {@code nanos}, with more queued behind it. */
    private void write(long bytes, long nanos) {
        meter.queued(now, true);
        meter.writeStarted(now, bytes);
        now += nanos;
        meter.writeEnded(now, bytes);
    }

    @Test
    void writesTheBufferTookAtOnceShowNoSpan() {
        for (int i = 0; i < 4; i++) {
            write(65_536, 20_000); // 20 µs: a copy, not a wait
        }
        LinkSample s = meter.sample(now);
        assertThat(s.metered()).isTrue();
        assertThat(s.writtenBytes()).isEqualTo(4 * 65_536);
        assertThat(s.spanEnded()).isFalse();
        assertThat(s.stalled()).isFalse();
        assertThat(meter.linkShown()).isFalse();
    }

    @Test
    void theBytesBetweenTwoFullMomentsAreWhatTheLinkCarried() {
        write(65_536, 5 * MS); // waited: the sink was full when it returned
        write(65_536, 20_000);
        write(65_536, 20_000);
        write(65_536, 10 * MS); // full again
        LinkSample s = meter.sample(now);
        assertThat(s.spanEnded()).isTrue();
        assertThat(s.fullSpanBytes()).isEqualTo(3 * 65_536);
        assertThat(s.fullSpanNanos()).isEqualTo(10 * MS + 2 * 20_000);
        assertThat(s.lastSpanBytes()).isEqualTo(s.fullSpanBytes());
        assertThat(meter.linkShown()).isTrue();
        assertThat(meter.sample(now).spanEnded()).as("a sample takes the spans with it").isFalse();
    }

    @Test
    void aSpanInWhichTheSinkSatIdleIsNotCounted() {
        write(65_536, 5 * MS);
        meter.queued(now, false);
        now += 50 * MS; // nothing to write: the link may have run dry
        write(65_536, 5 * MS);
        LinkSample s = meter.sample(now);
        assertThat(s.spanEnded()).isFalse();
        assertThat(s.idleNanos()).isEqualTo(50 * MS);
    }

    @Test
    void aWriteWaitingNowIsReportedWithTheBytesSinceTheLastFullMoment() {
        write(65_536, 5 * MS);
        write(65_536, 20_000);
        meter.writeStarted(now, 65_536);
        now += 30 * MS;
        LinkSample s = meter.sample(now);
        assertThat(s.stalled()).isTrue();
        assertThat(s.openSpanBytes()).isEqualTo(2 * 65_536);
        assertThat(s.openSpanNanos()).isEqualTo(30 * MS + 20_000);
    }

    @Test
    void aSinkThatTookFourNewBuffersWithoutFillingHasShownTheLink() {
        long taken = 0;
        while (taken < SinkMeter.SHOWN_WITHOUT_SPAN_BYTES) {
            assertThat(meter.linkShown()).isFalse();
            write(65_536, 20_000);
            taken += 65_536;
        }
        assertThat(meter.linkShown()).isTrue();
    }

    @Test
    void aStallIsAWriteSlowerThanACopyOfItsBytes() {
        assertThat(SinkMeter.stalled(90_000, 0)).isFalse();
        assertThat(SinkMeter.stalled(110_000, 0)).isTrue();
        assertThat(SinkMeter.stalled(110_000, 1 << 20)).as("a megabyte takes half a millisecond to copy").isFalse();
    }
}
