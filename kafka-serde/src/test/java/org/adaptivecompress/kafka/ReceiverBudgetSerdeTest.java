package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** adaptive.receiver.budget: the serializer stays inside what consumers decode, the deserializer refuses the rest. */
class ReceiverBudgetSerdeTest {

    private static final byte[] VALUE = DataKind.JSON_EVENTS.generate(4096);

    @Test
    void theSerializerUsesOnlyRungsInsideTheBudget() {
        // Fallback rung 6 is zstd:19 on the default ladder: outside the budget, so it moves down to zstd:7.
        Map<String, Object> cfg = SerdeConfigs.with(AdaptiveSerdeConfig.RECEIVER_BUDGET, "lz4,zstd:7",
                AdaptiveSerdeConfig.FALLBACK_RUNG, 6);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(cfg)) {
            for (int i = 0; i < 50; i++) {
                byte[] frame = ser.serialize("t", VALUE);
                assertThat(frame[1] & RecordFrame.CODEC_MASK).isEqualTo(CodecType.ZSTD.id());
                assertThat(de.deserialize("t", frame)).isEqualTo(VALUE);
            }
            assertThat(ser.statistics().ladder()).hasToString("raw,lz4,zstd:1,zstd:3,zstd:7");
        }
    }

    @Test
    void aFixedControllerMovesDownToTheNearestRungInsideTheBudget() {
        AdaptiveSerdeConfig config = new AdaptiveSerdeConfig(SerdeConfigs.with(AdaptiveSerdeConfig.RECEIVER_BUDGET,
                "lz4,zstd:3", AdaptiveSerdeConfig.CONTROLLER, "fixed:6"));
        assertThat(config.ladder()).hasToString("raw,lz4,zstd:1,zstd:3");
        assertThat(config.controller()).hasToString("fixed:3");
        assertThat(config.fallbackRung()).isEqualTo(1);
    }

    @Test
    void theDeserializerRefusesACodecOutsideItsBudget() {
        Map<String, Object> producer = SerdeConfigs.with(AdaptiveSerdeConfig.FALLBACK_RUNG, 3);
        Map<String, Object> consumer = SerdeConfigs.with(AdaptiveSerdeConfig.RECEIVER_BUDGET, "lz4");
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(producer);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(consumer)) {
            byte[] frame = ser.serialize("orders", VALUE);
            assertThatThrownBy(() -> de.deserialize("orders", frame)).isInstanceOf(AdaptiveFrameException.class)
                    .hasMessage("topic orders: value is stored with zstd, which adaptive.receiver.budget="
                            + "raw,lz4,window=8m,block=4m does not accept");
        }
    }

    @Test
    void aBadBudgetIsAConfigError() {
        assertThatThrownBy(() -> new AdaptiveSerdeConfig(SerdeConfigs.with(AdaptiveSerdeConfig.RECEIVER_BUDGET,
                "zstd:high"))).isInstanceOf(ConfigException.class).hasMessageContaining(
                        AdaptiveSerdeConfig.RECEIVER_BUDGET);
    }
}
