package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/** The link estimate: measuring windows, idle windows' guesses, and the bounds that act at once. */
class LinkEstimatorTest {

    private static final int BLOCK = 128 * 1024;
    private static final long MS = 1_000_000L;
    /** A backlog that neither grows nor empties: the sender writes all along. */
    private static final long STEADY_BACKLOG = 1 << 20;
    /** The most a sender writes at once, which a bound allows for in flight. */
    private static final int SENDER_WRITE = 64 * 1024;

    private final LinkEstimator link = new LinkEstimator();

    @Test
    void aWindowWithTheSenderBusyThroughoutMeasuresTheLink() {
        measureBusy(0, 100_000, 3, 100 * MS);

        assertThat(link.known()).isTrue();
        assertThat(link.rate()).isCloseTo(1e6, within(1.0));
        assertThat(link.measured()).isCloseTo(1e6, within(1.0));
        assertThat(link.guessed()).isFalse();
        assertThat(link.everMeasured()).isTrue();
    }

    @Test
    void idleWindowsDoubleAGuessUntilTheLinkIsMeasured() {
        // The FIFO runs dry at every block: the link took all it was offered, 1 MB/s.
        long drained = 0;
        learn(idle(0, drained), false);
        double[] after = new double[3];
        for (int w = 0; w < 3; w++) {
            drained += 100_000;
            learn(idle((w + 1) * 100 * MS, drained), false);
            after[w] = link.rate();
        }

        assertThat(link.guessed()).isTrue();
        assertThat(link.everMeasured()).isFalse();
        assertThat(link.idleWindowCount()).isEqualTo(3);
        assertThat(after).containsExactly(new double[] {2e6, 4e6, 8e6}, within(1.0));
    }

    @Test
    void aWindowTheLinkSatIdleInBrieflyMeasuresItOverTheRest() {
        // The FIFO read empty at every block's end, but the pipeline says the link sat idle for
        // 2 ms of the 100: over the other 98 the sender was writing, at the link's pace.
        learn(dryBlock(0, 0, 0), false);
        learn(dryBlock(50 * MS, 60_000, MS), false);
        learn(dryBlock(100 * MS, 196_000, MS), false);

        assertThat(link.guessed()).isFalse();
        assertThat(link.everMeasured()).isTrue();
        assertThat(link.rate()).isCloseTo(196_000 * 1e9 / (98 * MS), within(1.0));
    }

    @Test
    void aWindowTheLinkSatIdleInForLongerOnlyRaisesAGuess() {
        // Idle for 20 ms of 100: the sender's writes may have gone into a buffer with room, at
        // any pace, so the window says only that the link took what it was offered.
        learn(dryBlock(0, 0, 0), false);
        learn(dryBlock(50 * MS, 60_000, 10 * MS), false);
        learn(dryBlock(100 * MS, 196_000, 10 * MS), false);

        assertThat(link.guessed()).isTrue();
        assertThat(link.rate()).isCloseTo(2 * 196_000 * 1e9 / (100 * MS), within(1.0));
    }

    @Test
    void withHistoriesLentAnIdleWindowRaisesAGuessToAtMostFourTimesWhatDrained() {
        long drained = 0;
        learn(idle(0, drained), true);
        for (int w = 0; w < 5; w++) {
            drained += 100_000;
            learn(idle((w + 1) * 100 * MS, drained), true);
        }

        assertThat(link.rate()).isCloseTo(LinkEstimator.GUESS_HEADROOM * 1e6, within(1.0));
    }

    @Test
    void aBusyWindowThatMeasuresLessReplacesAGuessInsteadOfAveragingIt() {
        learn(idle(0, 0), false);
        learn(idle(100 * MS, 100_000), false);
        learn(idle(200 * MS, 200_000), false);
        assertThat(link.rate()).isCloseTo(4e6, within(1.0));

        // Then the sender is busy throughout a window that drains 1 MB/s.
        for (int i = 1; i <= 3; i++) {
            learn(busy(200 * MS + i * 100 * MS, 200_000 + i * 100_000L), false);
        }

        assertThat(link.guessed()).isFalse();
        assertThat(link.rate()).isCloseTo(1e6, within(1.0));
    }

    @Test
    void aBacklogThatGrowsForLongerThanAStallLowersTheEstimateAtOnceAndSaysTheFifoOutranIt() {
        measureBusy(0, 100_000, 3, MS); // 100 MB/s
        learn(idle(4 * MS, 300_000), false);
        // A new backlog begins, and the link slows: 300 KB more queue up over the next 5 ms
        // while only 2 KB drain, long before the next window could close.
        learn(busy(5 * MS, 300_000), false);
        assertThat(link.takeFifoOutranLink()).isFalse();
        long drained = 302_000;
        learn(observation(10 * MS, drained, STEADY_BACKLOG, STEADY_BACKLOG + 300_000), false);

        // At most what drained since the backlog began, plus one write in flight, over the time.
        double bound = (drained - 300_000 + SENDER_WRITE) * 1e9 / (5 * MS);
        assertThat(link.rate()).isCloseTo(bound, Percentage.withPercentage(0.01));
        assertThat(link.takeFifoOutranLink()).isTrue();
        assertThat(link.takeFifoOutranLink()).isFalse();
    }

    @Test
    void aFullFifoTheWriterWaitedOnBoundsTheLinkWithoutGrowing() {
        measureBusy(0, 100_000, 3, MS); // 100 MB/s
        learn(idle(4 * MS, 300_000), false);
        // A backlog fills the FIFO, and the link slows to 400 KB/s. The FIFO can grow no
        // further: only the writer's wait for room shows the backlog building.
        learn(busy(5 * MS, 300_000), false);

        learn(fullFifo(15 * MS, 304_000), false);

        // At most what drained since the backlog began, plus one write in flight, over the time.
        double bound = (4_000 + SENDER_WRITE) * 1e9 / (10 * MS);
        assertThat(link.rate()).isCloseTo(bound, Percentage.withPercentage(0.01));
    }

    @Test
    void rawBlocksTheWriterWroteItselfBoundTheLinkOnceTheirWritesOutlastTwoStallsAndTheNextAgrees() {
        measureBusy(0, 100_000, 3, MS); // 100 MB/s
        long span = LinkEstimator.DIRECT_WRITE_SPAN_MILLIS * MS;

        // Writes at 10 MB/s, each half the span: one alone may be a stall at either end.
        learn(idleWithDirectWrite(4 * MS, 300_000, 40_000, span / 2), false);
        assertThat(link.rate()).isCloseTo(100e6, within(1.0));
        learn(idleWithDirectWrite(4 * MS + span / 2, 340_000, 40_000, span / 2), false);
        // Together they outlast the span; a sink that held them for a moment would take the next at once.
        assertThat(link.rate()).isCloseTo(100e6, within(1.0));
        learn(idleWithDirectWrite(4 * MS + span, 380_000, 40_000, span / 2), false);

        assertThat(link.rate()).isCloseTo(80_000 * 1e9 / span, within(1.0));
    }

    @Test
    void aWriteOfASlowLinksPaceBoundsTheLinkAlone() {
        measureBusy(0, 100_000, 3, MS); // 100 MB/s
        long slow = LinkEstimator.DIRECT_WRITE_ALONE_MILLIS * MS;

        learn(idleWithDirectWrite(4 * MS, 300_000, 130_000, slow), false);

        assertThat(link.rate()).isCloseTo(130_000 * 1e9 / slow, within(1.0));
    }

    @Test
    void aWriteHeldPastTwoStallsAndAFastOneAfterItLeaveTheEstimate() {
        measureBusy(0, 100_000, 3, MS); // 100 MB/s
        long held = LinkEstimator.DIRECT_WRITE_SPAN_MILLIS * MS + MS;

        learn(idleWithDirectWrite(4 * MS, 300_000, 130_000, held), false);
        learn(idleWithDirectWrite(4 * MS + held, 430_000, 130_000, MS / 5), false);

        assertThat(link.rate()).isCloseTo(100e6, within(1.0));
    }

    @Test
    void aWindowOfDirectWritesOneHeldByAStallDoesNotMeasureTheLink() {
        // Idle windows guess the link at 5.2 GB/s: the FIFO ran dry at every block.
        for (int i = 0; i <= 4; i++) {
            learn(idle(i * MS / 10, i * (long) BLOCK), false);
        }
        double guess = link.rate();
        assertThat(link.guessed()).isTrue();
        assertThat(guess).isCloseTo(4 * 2 * BLOCK * 1e9 / (MS / 5), within(1.0));

        // Then two raw blocks the writer wrote itself, the second held 2.4 ms by a receiver that
        // lost its core; the link sat idle for 50 us before each, under a twentieth of the window.
        long start = 4 * MS / 10;
        learn(directWriteAfterIdle(start + MS / 10, 5L * BLOCK, MS / 50, MS / 20), false);
        learn(directWriteAfterIdle(start + MS / 10 + 25 * MS / 10, 6L * BLOCK, 24 * MS / 10, MS / 20), false);

        // Read as a busy window, they would have measured 105 MB/s and replaced the guess.
        assertThat(link.rate()).isCloseTo(guess, within(1.0));
        assertThat(link.guessed()).isTrue();
    }

    @Test
    void rawBlocksWrittenBackToBackMeasureAPacedLinkThroughItsBursts() {
        // 10 Gbit/s through a token bucket holding 10 ms of credit, full after a stretch at a
        // codec: the writer's raw writes take 10 us a block until it is spent, then the link's pace.
        double rate = 1.25e9;
        writeRawThroughBucket(rate, 12 * MS / 1000, 10 * MS, 130 * MS);

        assertThat(link.guessed()).isFalse();
        assertThat(link.rate()).isCloseTo(rate, Percentage.withPercentage(5));
    }

    @Test
    void rawBlocksTheWriterPacesItselfLeaveTheEstimateAGuess() {
        // The writer spends 100 us a block on its own work, the link takes each write in 10 us.
        writeRawThroughBucket(40e9, 100 * MS / 1000, 10 * MS, 130 * MS);

        assertThat(link.guessed()).isTrue();
    }

    @Test
    void aBacklogHeldPastAStallAndEmptiedWithinABlockRaisesTheEstimateAtOnce() {
        measureBusy(0, 100_000, 3, 100 * MS); // 1 MB/s, the FIFO held since time 0
        long drained = 300_000;
        assertThat(link.backlogHeldNanos()).isEqualTo(300 * MS);

        // The next block finds the FIFO emptied: its megabyte and the frame left within 1 ms.
        int stored = 50_000;
        drained += STEADY_BACKLOG + stored;
        Observation emptied = Observation.builder().rung(2).topRung(6).fifo(STEADY_BACKLOG, 0)
                .block(BLOCK, stored, false).compressNanos(MS / 2).drainedBytes(drained).nanoTime(301 * MS).build();
        learn(emptied, false);

        // At least what drained less a write that began before, over no less than a stall.
        double atLeast = (STEADY_BACKLOG + stored - SENDER_WRITE) * 1e9 / (LinkEstimator.STALL_MILLIS * MS);
        assertThat(link.rate()).isCloseTo(atLeast, within(1.0));
        assertThat(link.measured()).isCloseTo(atLeast, within(1.0));
        assertThat(link.backlogHeldNanos()).isEqualTo(-1);
    }

    @Test
    void beforeTheFirstWindowTheLinkIsBoundedByWhatDrainedSinceTheStart() {
        // The first block took 1 ms; nothing written yet, and the stream is younger than the
        // silence that bounds the link.
        link.boundStartup(startup(MS, MS, 0));
        assertThat(link.startupAtMost()).isNaN();

        // Silence past the mark: at most one write could have left over that time, and the
        // start-up rung may spend no longer on a block than the silence lasted.
        long silence = LinkEstimator.STARTUP_SILENCE_MILLIS * MS + MS / 2;
        link.boundStartup(startup(silence, MS, 0));
        assertThat(link.startupAtMost()).isCloseTo(SENDER_WRITE * 1e9 / silence, within(1.0));
        assertThat(link.silenceNanos()).isEqualTo(silence);

        // A write finished: what drained plus one write in flight, and no silence cap.
        link.boundStartup(startup(5 * MS, MS, 100_000));
        assertThat(link.startupAtMost()).isCloseTo((100_000 + SENDER_WRITE) * 1e9 / (5 * MS), within(1.0));
        assertThat(link.silenceNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(link.known()).isFalse();
    }

    /** Blocks {@code every} ns apart, each draining {@code perBlock} bytes, the FIFO holding a steady backlog. */
    private void measureBusy(long start, long perBlock, int blocks, long every) {
        learn(busy(start, 0), false);
        for (int i = 1; i <= blocks; i++) {
            learn(busy(start + i * every, i * perBlock), false);
        }
    }

    /**
     * Raw blocks the writer writes itself for {@code nanos}, each after {@code workNanos} of its
     * own work, through a token bucket of {@code rate} holding {@code creditNanos} of credit, full
     * at the start; a write takes at least 10 us.
     */
    private void writeRawThroughBucket(double rate, long workNanos, long creditNanos, long nanos) {
        double capacity = rate * creditNanos / 1e9;
        double tokens = capacity;
        long now = 0;
        long drained = 0;
        while (now < nanos) {
            now += workNanos;
            tokens = Math.min(capacity, tokens + rate * workNanos / 1e9);
            long write = Math.max(MS / 100, (long) (Math.max(0, BLOCK - tokens) * 1e9 / rate));
            tokens = Math.min(capacity, tokens + rate * write / 1e9) - BLOCK;
            now += write;
            drained += BLOCK;
            learn(idleWithDirectWrite(now, drained, BLOCK, write), false);
        }
    }

    private void learn(Observation o, boolean historiesLent) {
        link.learn(o, historiesLent);
    }

    private static Observation busy(long nanoTime, long drained) {
        return observation(nanoTime, drained, STEADY_BACKLOG, STEADY_BACKLOG);
    }

    private static Observation idle(long nanoTime, long drained) {
        return observation(nanoTime, drained, 0, 0);
    }

    /** A block whose FIFO read empty at its start and end, the link idle {@code linkIdleNanos} since the last. */
    private static Observation dryBlock(long nanoTime, long drained, long linkIdleNanos) {
        return Observation.builder().rung(2).topRung(6).fifo(0, 0).block(BLOCK, BLOCK / 3, false)
                .compressNanos(MS / 2).drainedBytes(drained).nanoTime(nanoTime).linkIdleNanos(linkIdleNanos).build();
    }

    private static Observation observation(long nanoTime, long drained, long fifoAtStart, long fifoNow) {
        return Observation.builder().rung(2).topRung(6).fifo(fifoAtStart, fifoNow).block(BLOCK, BLOCK / 3, false)
                .compressNanos(MS / 2).drainedBytes(drained).nanoTime(nanoTime).build();
    }

    /** A block after which the FIFO stands as full as before it, the writer having waited for room. */
    private static Observation fullFifo(long nanoTime, long drained) {
        return Observation.builder().rung(2).topRung(6).fifo(STEADY_BACKLOG, STEADY_BACKLOG).block(BLOCK, BLOCK / 3, false)
                .compressNanos(MS / 2).drainedBytes(drained).nanoTime(nanoTime).writerWaitNanos(MS).build();
    }

    private static Observation idleWithDirectWrite(long nanoTime, long drained, long bytes, long nanos) {
        return directWrite(nanoTime, drained, bytes, nanos).build();
    }

    /** A raw block the writer wrote itself in {@code nanos}, the link idle {@code linkIdleNanos} since the last. */
    private static Observation directWriteAfterIdle(long nanoTime, long drained, long nanos, long linkIdleNanos) {
        return directWrite(nanoTime, drained, BLOCK, nanos).linkIdleNanos(linkIdleNanos).build();
    }

    private static Observation.Builder directWrite(long nanoTime, long drained, long bytes, long nanos) {
        return Observation.builder().rung(0).topRung(6).fifo(0, 0).block(BLOCK, BLOCK, false)
                .compressNanos(MS / 20).drainedBytes(drained).nanoTime(nanoTime).writerWaitNanos(nanos)
                .directWrites(bytes, nanos);
    }

    private static Observation startup(long nanoTime, long compressNanos, long drained) {
        return Observation.builder().rung(2).topRung(6).fifo(0, 0).block(BLOCK, BLOCK / 3, false)
                .compressNanos(compressNanos).drainedBytes(drained).nanoTime(nanoTime).build();
    }
}
