package org.adaptivecompress.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.junit.jupiter.api.Test;

class LinkDemoTest {

    @Test
    void theAdaptiveSenderCompressesOnTheSlowLinkAndEverythingArrivesIntact() throws Exception {
        byte[] data = LinkDemo.demoData(3 << 20);

        var adaptive = LinkDemo.transfer(data, RateLimitedOutputStream.parseRate("16mbit"), "adoc");
        var raw = LinkDemo.transfer(data, RateLimitedOutputStream.parseRate("16mbit"), "fixed:0");

        assertThat(raw.stats().blocks(0)).isEqualTo(raw.stats().totalBlocks());
        assertThat(raw.wireBytes()).isGreaterThan(data.length);
        assertThat(adaptive.stats().highestRungWithAtLeast(2)).isGreaterThan(1);
        assertThat(adaptive.wireBytes()).isLessThan(raw.wireBytes() / 2);
    }
}
