package org.adaptivecompress.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;

class StatisticsGroupTest {

    private static final int ZSTD_1 = 2; // in the default ladder

    private static AdaptiveOutputStream stream(StatisticsGroup group, String controller) {
        return AdaptiveOutputStream.builder().controller(controller).statisticsGroup(group)
                .build(new ByteArrayOutputStream());
    }

    @Test
    void countsZeroBeforeAStreamJoins() {
        StatisticsGroup group = new StatisticsGroup();

        assertThat(group.statistics().totalBlocks()).isZero();
        assertThat(group.statistics().streams()).isZero();
        assertThat(group.statistics().ladder()).isEqualTo(group.ladder());
        assertThat(group.openStreams()).isZero();
    }

    @Test
    void sumsItsStreamsOpenAndClosed() throws IOException {
        StatisticsGroup group = new StatisticsGroup();
        List<CompressionStatistics> finals = new ArrayList<>();
        AdaptiveOutputStream stillOpen = stream(group, "fixed:" + ZSTD_1);
        stillOpen.write(DataKind.JSON_EVENTS.generate(1 << 20));
        stillOpen.flush();
        for (DataKind kind : new DataKind[] {DataKind.TEXT, DataKind.RANDOM}) {
            AdaptiveOutputStream s = stream(group, "fixed:" + ZSTD_1);
            s.write(kind.generate(1 << 20));
            s.close();
            finals.add(s.statistics());
        }
        finals.add(stillOpen.statistics());

        CompressionStatistics sum = group.statistics();

        assertThat(group.openStreams()).isEqualTo(1);
        assertThat(sum.streams()).isEqualTo(1);
        assertThat(sum.streamsAt(ZSTD_1)).isEqualTo(1);
        assertThat(sum.currentRung()).isEqualTo(ZSTD_1);
        assertThat(sum.totalBytesIn()).isEqualTo(finals.stream().mapToLong(CompressionStatistics::totalBytesIn).sum())
                .isEqualTo(3L << 20);
        assertThat(sum.totalBytesOut()).isEqualTo(finals.stream().mapToLong(CompressionStatistics::totalBytesOut).sum());
        for (int r = 0; r < sum.ladder().size(); r++) {
            int rung = r;
            assertThat(sum.blocks(r)).isEqualTo(finals.stream().mapToLong(s -> s.blocks(rung)).sum());
        }
        assertThat(sum.incompressibleBlocks()).isEqualTo(finals.get(1).incompressibleBlocks()).isPositive();
        assertThat(sum.decisions(Reason.FIXED))
                .isEqualTo(finals.stream().mapToLong(s -> s.decisions(Reason.FIXED)).sum()).isPositive();
        assertThat(sum.linkBytesPerSecond()).as("a fixed rung does not model the link").isNaN();
    }

    @Test
    void countsNeverDecreaseWhileStreamsComeAndGo() throws Exception {
        StatisticsGroup group = new StatisticsGroup();
        byte[] data = DataKind.JSON_EVENTS.generate(256 << 10);
        ExecutorService writers = Executors.newFixedThreadPool(3);
        List<Future<?>> work = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            work.add(writers.submit(() -> {
                for (int i = 0; i < 20; i++) {
                    try (AdaptiveOutputStream s = stream(group, "model")) {
                        s.write(data);
                    }
                }
                return null;
            }));
        }
        try {
            long lastIn = 0;
            long lastBlocks = 0;
            while (!work.stream().allMatch(Future::isDone)) {
                CompressionStatistics s = group.statistics();
                assertThat(s.totalBytesIn()).isGreaterThanOrEqualTo(lastIn);
                assertThat(s.totalBlocks()).isGreaterThanOrEqualTo(lastBlocks);
                lastIn = s.totalBytesIn();
                lastBlocks = s.totalBlocks();
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            writers.shutdownNow();
        }

        assertThat(group.openStreams()).isZero();
        assertThat(group.statistics().totalBytesIn()).isEqualTo(60L * data.length);
        assertThat(group.statistics().streams()).isZero();
    }

    @Test
    void refusesAStreamOfAnotherLadder() {
        StatisticsGroup group = new StatisticsGroup();

        assertThatThrownBy(() -> AdaptiveOutputStream.builder()
                .compression(AdaptiveCompressionOptions.builder().ladder("raw,lz4").statisticsGroup(group).build())
                .build(new ByteArrayOutputStream()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("raw,lz4");
    }
}
