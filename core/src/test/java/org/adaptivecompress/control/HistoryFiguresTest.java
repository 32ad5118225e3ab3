package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.format.FrameFormat;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/** The figures of rungs with histories: two kinds of block, mixed in the data's share. */
class HistoryFiguresTest {

    private static final int BLOCK = 128 * 1024;
    private static final int TOP = 6;
    /** Blocks in a history's first window, which do not count in the cold share. */
    private static final int FIRST_WINDOW = (1 << FrameFormat.HISTORY_WINDOW_LOG) / BLOCK;
    private static final long WARM_NANOS = 50_000;
    private static final long COLD_NANOS = 2_500_000;
    private static final int WARM_STORED = 20;
    private static final int COLD_STORED = 50_000;

    private final HistoryFigures figures = new HistoryFigures();

    HistoryFiguresTest() {
        figures.size(TOP + 1);
    }

    @Test
    void aRungsSpeedAndRatioAreItsTwoKindsInTheColdShare() {
        // 27 warm blocks, then three cold ones, over and over: a tenth of them cold.
        feedMix(2, 30 * 10);

        double share = 0.1;
        double nanosPerBlock = (1 - share) * WARM_NANOS + share * COLD_NANOS;
        double sentPerBlock = (1 - share) * (WARM_STORED + 20) + share * (COLD_STORED + 20);
        // Within what the share's moving average swings by over a spell (it ends on one).
        assertThat(figures.speed(2)).isCloseTo(BLOCK * 1e9 / nanosPerBlock, Percentage.withPercentage(25));
        assertThat(figures.ratio(2)).isCloseTo(BLOCK / sentPerBlock, Percentage.withPercentage(25));
    }

    @Test
    void aProbeOfWarmBlocksLeavesASlowerRungSlowerOnNewData() {
        feedMix(2, 30 * 10);
        // zstd:15, probed: four warm blocks as fast as zstd:1's.
        block(5, WARM_STORED, WARM_NANOS, true);
        for (int i = 0; i < 3; i++) {
            block(5, WARM_STORED, WARM_NANOS, false);
        }

        // Its cold blocks, never seen, are 27 times zstd:1's (three times per rung up), and
        // they are what its speed on this data comes to.
        assertThat(figures.speed(5)).isLessThan(figures.speed(2) / 10);
    }

    @Test
    void aBlockThatStartsAHistoryCostsAMoveNotEveryBlock() {
        feedMix(2, 30 * 10);
        double speed = figures.speed(2);
        double ratio = figures.ratio(2);

        // The history started afresh: 7 ms to load the stream's last bytes, then a warm block.
        block(2, WARM_STORED, 7_000_000 + WARM_NANOS, true);

        // Its kind counts in the share (a little more warm), its time in no figure: counted as
        // a warm block's, it would have made the rung's warm blocks look 35 times slower.
        assertThat(figures.speed(2)).isCloseTo(speed, Percentage.withPercentage(2));
        assertThat(figures.ratio(2)).isCloseTo(ratio, Percentage.withPercentage(2));
        assertThat(figures.primeNanos(2)).isCloseTo(7_000_000.0, Percentage.withPercentage(1));
    }

    @Test
    void aLoadThatIsTheFirstBlockOfItsKindSetsNoFigureOfThatKind() {
        // zstd:1 found nothing in its first window; left, and started again, it loads the
        // stream's last bytes (9 ms) and finds the data there: the first warm block anywhere.
        for (int i = 0; i < FIRST_WINDOW; i++) {
            block(2, COLD_STORED, COLD_NANOS, i == 0);
        }
        block(2, WARM_STORED, 9_000_000 + WARM_NANOS, true);
        for (int i = 0; i < 3; i++) {
            block(2, WARM_STORED, WARM_NANOS, false);
        }

        // Every block since the first window was warm, and warm blocks take 0.05 ms: taken as
        // the first warm figure, the load had left the rung looking 77 times slower.
        assertThat(figures.speed(2)).isCloseTo(BLOCK * 1e9 / WARM_NANOS, Percentage.withPercentage(1));
        assertThat(figures.primeNanos(2)).isCloseTo(9_000_000.0 + WARM_NANOS, Percentage.withPercentage(1));
    }

    @Test
    void aRungNeverSeenWouldLoadTheStreamsLastBytesAtItsSpeedOnNewData() {
        feedMix(2, 30 * 10);

        // zstd:9, two rungs above zstd:1, nine times slower on cold blocks; a full window to load.
        double coldNanosPerByte = (double) COLD_NANOS / BLOCK * 9;
        assertThat(figures.covers(4, false)).isTrue();
        assertThat(figures.stale(4)).isTrue();
        assertThat(figures.primeNanos(4)).isCloseTo(coldNanosPerByte * (1 << FrameFormat.HISTORY_WINDOW_LOG),
                Percentage.withPercentage(1));
    }

    @Test
    void theStreamsFirstWindowCountsAsColdWhateverItsBlocks() {
        // Warm and cold blocks, but all within the first window: no share is learnt.
        for (int i = 0; i < FIRST_WINDOW; i++) {
            boolean cold = i % 2 == 0;
            block(2, cold ? COLD_STORED : WARM_STORED, cold ? COLD_NANOS : WARM_NANOS, i == 0);
        }

        assertThat(figures.speed(2)).isCloseTo(BLOCK * 1e9 / COLD_NANOS, Percentage.withPercentage(1));
    }

    @Test
    void rungsWithoutHistoriesAreLeftToTheController() {
        feedMix(2, 33);
        // LZ4 below: its blocks never start a history.
        figures.advance(1, BLOCK, true);
        boolean learnt = figures.learn(1, observation(1, 80_000, 400_000, false));

        assertThat(learnt).isFalse();
        assertThat(figures.covers(1, true)).isFalse();
        assertThat(figures.primeNanos(1)).isNaN();
        // A history rung's history goes stale once it misses half a window of the stream.
        for (int i = 0; i < FIRST_WINDOW / 2; i++) {
            figures.advance(1, BLOCK, true);
        }
        assertThat(figures.stale(2)).isTrue();
    }

    /** {@code blocks} blocks at {@code rung} after a first window of cold ones: in each 30, 27 warm then 3 cold. */
    private void feedMix(int rung, int blocks) {
        for (int i = 0; i < FIRST_WINDOW; i++) {
            block(rung, COLD_STORED, COLD_NANOS, i == 0);
        }
        for (int i = 0; i < blocks; i++) {
            boolean cold = i % 30 >= 27;
            block(rung, cold ? COLD_STORED : WARM_STORED, cold ? COLD_NANOS : WARM_NANOS, false);
        }
    }

    private void block(int rung, int stored, long nanos, boolean startsHistory) {
        figures.advance(rung, BLOCK, true);
        figures.learn(rung, observation(rung, stored, nanos, startsHistory));
    }

    private static Observation observation(int rung, int stored, long nanos, boolean startsHistory) {
        return Observation.builder().rung(rung).topRung(TOP).block(BLOCK, stored, false).compressNanos(nanos)
                .historyStarted(startsHistory).build();
    }
}
