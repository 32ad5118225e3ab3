package org.adaptivecompress.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;

class StatisticsMBeanTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void showsAStreamsStatisticsOnThePlatformServerUntilClosed() throws Exception {
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:2").build(new ByteArrayOutputStream());
        out.write(DataKind.TEXT.generate(1 << 20));
        out.close();
        CompressionStatistics stats = out.statistics();
        ObjectName name;
        try (StatisticsMBean<CompressionStatistics> bean = StatisticsMBean.register("replication \"east\"", out::statistics)) {
            name = bean.objectName();
            assertThat(name.getDomain()).isEqualTo("org.adaptivecompress");

            assertThat(SERVER.getAttribute(name, "adaptive.compress.input")).isEqualTo(stats.totalBytesIn());
            assertThat(SERVER.getAttribute(name, "adaptive.compress.output")).isEqualTo(stats.totalBytesOut());
            assertThat(SERVER.getAttribute(name, "adaptive.compress.blocks[zstd:1]")).isEqualTo(stats.blocks(2))
                    .isNotEqualTo(0L);
            assertThat(SERVER.getAttribute(name, "adaptive.compress.decisions[fixed]")).isEqualTo(stats.totalBlocks());
            assertThat(SERVER.getAttribute(name, "adaptive.compress.rung")).isEqualTo(2.0);
            assertThat((Double) SERVER.getAttribute(name, "adaptive.compress.link.rate")).isNaN();
            assertThat(Arrays.stream(SERVER.getMBeanInfo(name).getAttributes()).map(MBeanAttributeInfo::getName))
                    .contains("adaptive.compress.input", "adaptive.compress.input[raw]", "adaptive.compress.input[xz:6]",
                            "adaptive.compress.decisions[link_dropped]", "adaptive.compress.workers");
            assertThatThrownBy(() -> SERVER.getAttribute(name, "adaptive.compress.input[zstd:22]"))
                    .hasMessageContaining("no attribute");

            assertThatThrownBy(() -> StatisticsMBean.register("replication \"east\"", out::statistics))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("registered already");
        }
        assertThat(SERVER.isRegistered(name)).isFalse();
    }

    @Test
    void readsAGroupBeforeItsFirstStream() throws Exception {
        StatisticsGroup group = new StatisticsGroup();
        try (StatisticsMBean<CompressionStatistics> bean = StatisticsMBean.register("empty group", group::statistics)) {
            assertThat(SERVER.getAttribute(bean.objectName(), "adaptive.compress.blocks")).isEqualTo(0L);
            assertThat(SERVER.getAttribute(bean.objectName(), "adaptive.compress.fifo")).isEqualTo(0.0);
        }
    }
}
