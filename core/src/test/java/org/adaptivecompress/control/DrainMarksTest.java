package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DrainMarksTest {

    @Test
    void theTightestBoundComesFromTheSpanThatDrainedSlowest() {
        DrainMarks marks = new DrainMarks(4);
        marks.add(0, 0);
        marks.add(1_000_000, 1_000_000); // a burst: 1 MB in the first millisecond
        marks.add(5_000_000, 1_000_000);

        // From 1 ms: 64 KiB in flight over 9 ms, tighter than from 0 (a burst) or from 5 ms (a short span).
        double rate = marks.slowestRateTo(10_000_000, 1_000_000, 64 * 1024);

        assertThat(rate).isEqualTo(64 * 1024 * 1e9 / 9_000_000);
    }

    @Test
    void theOldestMarkGivesWayWhenFull() {
        DrainMarks marks = new DrainMarks(2);
        marks.add(0, 0);
        marks.add(1_000_000, 100_000);
        marks.add(2_000_000, 1_100_000);

        // From the evicted mark at 0 the rate would be 0.7 GB/s; both marks left give 1 GB/s.
        assertThat(marks.slowestRateTo(3_000_000, 2_100_000, 0)).isEqualTo(1e9);
    }

    @Test
    void noMarksBoundNothing() {
        DrainMarks marks = new DrainMarks(2);
        marks.add(0, 0);
        marks.clear();

        assertThat(marks.slowestRateTo(1_000_000, 0, 0)).isInfinite();
    }
}
