package org.adaptivecompress.stream;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.testing.fuzz.FuzzCampaign;
import org.adaptivecompress.testing.fuzz.FuzzSamples;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveInputStream} under the structure-aware fuzzer: typed errors or the original
 * bytes, never anything else (see {@link FuzzCampaign}).
 */
class StreamFuzzTest {

    @Test
    void wholeReads() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("core-stream", FuzzSamples.streams(), false, input -> {
            try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(input))) {
                return in.readAllBytes();
            }
        }, FrameFormatException.class);
        System.out.println(campaign.run(1, FuzzCampaign.inputs(40_000)));
    }
}
