package org.adaptivecompress.kafka;

import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.fuzz.FuzzCampaign;
import org.adaptivecompress.testing.fuzz.FuzzCampaign.Sample;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveDeserializer} under the fuzzer (see {@link FuzzCampaign}), on values framed by
 * every codec. A record frame has no checksum (the record batch's CRC32C covers it), so damage
 * inside a payload may decode to other bytes of the declared length: the campaign checks that
 * every failure is an {@link AdaptiveFrameException} and that nothing hangs or exhausts memory.
 */
class DeserializerFuzzTest {

    @Test
    void values() throws Exception {
        try (AdaptiveDeserializer<byte[]> deserializer = SerdeConfigs.deserializer(SerdeConfigs.with())) {
            FuzzCampaign campaign = new FuzzCampaign("kafka-deserializer", samples(), false,
                    value -> deserializer.deserialize("fuzz", value), AdaptiveFrameException.class)
                    .accepting((sample, input, output) -> output != null);
            System.out.println(campaign.run(6, FuzzCampaign.inputs(40_000)));
        }
    }

    private static List<Sample> samples() {
        List<Sample> samples = new ArrayList<>();
        for (String rung : new String[] {"raw", "lz4", "zstd:3", "xz:1", "deflate:6"}) {
            for (byte[] value : new byte[][] {DataKind.JSON_EVENTS.generate(3000), DataKind.TEXT.generate(200),
                new byte[] {7}}) {
                try (AdaptiveSerializer<byte[]> serializer = SerdeConfigs.serializer(SerdeConfigs.with(
                        AdaptiveSerdeConfig.LADDER, rung.equals("raw") ? "raw" : "raw," + rung,
                        AdaptiveSerdeConfig.FALLBACK_RUNG, rung.equals("raw") ? 0 : 1))) {
                    samples.add(new Sample(serializer.serialize("fuzz", value), value));
                }
            }
        }
        return samples;
    }
}
