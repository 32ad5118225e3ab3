package org.adaptivecompress.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;

class CompressionMetricsTest {

    private static final Path DOC = Path.of("..", "docs", "METRICS.md");

    private static double sum(StatisticsMetric<CompressionStatistics> m, CompressionStatistics s) {
        double total = 0;
        for (int i = 0; i < m.tagValues(s).size(); i++) {
            total += m.value(s, i);
        }
        return total;
    }

    private static StatisticsMetric<CompressionStatistics> metric(String name) {
        return CompressionMetrics.ALL.stream().filter(m -> m.name().equals(CompressionMetrics.PREFIX + name))
                .findFirst().orElseThrow();
    }

    @Test
    void namesAreUniqueAndShareThePrefix() {
        Set<String> names = new HashSet<>();
        for (StatisticsMetric<CompressionStatistics> m : CompressionMetrics.ALL) {
            assertThat(names.add(m.name())).as(m.name()).isTrue();
            assertThat(m.name()).startsWith(CompressionMetrics.PREFIX);
        }
    }

    @Test
    void figuresMatchTheStatisticsOfAStreamOnASlowLink() throws IOException {
        AtomicReference<Decision> lastWithLink = new AtomicReference<>();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder()
                .listener((o, d) -> {
                    if (!Double.isNaN(d.linkBytesPerSecond())) {
                        lastWithLink.set(d);
                    }
                })
                .build(new RateLimitedOutputStream(OutputStream.nullOutputStream(), RateLimitedOutputStream.parseRate("40mbit")));
        byte[] data = DataKind.MIXED.generate(4 << 20);
        for (int i = 0; i < data.length; i += 65536) {
            out.write(data, i, 65536);
        }
        out.close();
        CompressionStatistics s = out.statistics();

        assertThat(sum(metric("input"), s) - sum(metric("input.replaced"), s)).isEqualTo(data.length);
        assertThat(sum(metric("output"), s) - sum(metric("output.replaced"), s)).isEqualTo(s.totalBytesOut());
        assertThat(sum(metric("blocks"), s) - sum(metric("blocks.replaced"), s)).isEqualTo(s.totalBlocks());
        assertThat(sum(metric("blocks.replaced"), s)).isEqualTo(s.recompressedBlocks());
        assertThat(sum(metric("decisions"), s)).as("one decision per block").isEqualTo(s.totalBlocks());
        assertThat(sum(metric("streams"), s)).isEqualTo(1);
        assertThat(metric("rung").value(s, 0)).isEqualTo(s.currentRung());
        assertThat(metric("decisions").tagValues(s)).contains("best", "startup", "link_dropped");
        assertThat(metric("input").tagValues(s)).containsExactly("raw", "lz4", "zstd:1", "zstd:3", "zstd:9",
                "zstd:15", "xz:6");
        assertThat(metric("link.rate").value(s, 0)).as("the last link rate a decision assumed")
                .isEqualTo(lastWithLink.get() == null ? Double.NaN : lastWithLink.get().linkBytesPerSecond());
        assertThat(s.decisionsByReason().keySet()).doesNotContain(Reason.FIXED);
        assertThat(s.bytesInPerSecondSince(null)).isPositive();
        assertThat(s.cpuNanos()).as("compression CPU, on the threads' clocks").isPositive();
        assertThat(metric("cpu").value(s, 0)).isEqualTo(s.cpuNanos() / 1e9);
        assertThat(s.compressionCores()).isPositive().isLessThanOrEqualTo(1.5);
    }

    @Test
    void ratesBetweenTwoSnapshotsCountOnlyWhatWasWrittenBetween() throws IOException {
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:1").build(new ByteArrayOutputStream());
        out.write(DataKind.TEXT.generate(1 << 20));
        out.flush();
        CompressionStatistics first = out.statistics();
        out.write(DataKind.TEXT.generate(1 << 20));
        out.flush();
        CompressionStatistics second = out.statistics();

        double seconds = (second.elapsedNanos() - first.elapsedNanos()) / 1e9;
        assertThat(second.bytesInPerSecondSince(first) * seconds).isCloseTo(1 << 20, offset(1.0));
        assertThat(second.bytesOutPerSecondSince(first) * seconds)
                .isCloseTo(second.totalBytesOut() - first.totalBytesOut(), offset(1.0));
    }

    @Test
    void docsContainTheReferenceGeneratedFromTheDefinitions() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);

        assertThat(doc).as("docs/METRICS.md must contain StatisticsMetric.markdownTable(CompressionMetrics.ALL)"
                + " verbatim; regenerate it").contains(StatisticsMetric.markdownTable(CompressionMetrics.ALL));
    }

    @Test
    void everyMetricIsReadableBeforeAnyBlock() throws IOException {
        CompressionStatistics s;
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().build(new ByteArrayOutputStream())) {
            s = out.statistics();
        }
        for (StatisticsMetric<CompressionStatistics> m : CompressionMetrics.ALL) {
            List<String> tags = m.tagValues(s);
            for (int i = 0; i < tags.size(); i++) {
                double v = m.value(s, i);
                assertThat(v == 0 || m.name().endsWith("rung") || m.name().endsWith("streams") || m.name().endsWith("workers")
                        || Double.isNaN(v)).as(m + " " + tags.get(i) + " = " + v).isTrue();
            }
        }
    }
}
