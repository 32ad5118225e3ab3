package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The test vectors of docs/kafka.md, byte for byte. */
class FrameFormatVectorsTest {

    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    @Test
    void shortValueIsARawFrame() {
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        byte[] frame = HEX.parseHex("ac 00 05 68 65 6c 6c 6f");
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(SerdeConfigs.with());
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(SerdeConfigs.with())) {
            assertThat(ser.serialize("t", hello)).isEqualTo(frame);
            assertThat(de.deserialize("t", frame)).isEqualTo(hello);
        }
    }

    @Test
    void lz4FrameDecodesToOneHundredAs() {
        byte[] frame = HEX.parseHex("ac 01 64 1f 61 01 00 4b 50 61 61 61 61 61");
        byte[] expected = new byte[100];
        Arrays.fill(expected, (byte) 'a');
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(SerdeConfigs.with())) {
            assertThat(de.deserialize("t", frame)).isEqualTo(expected);
        }
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(
                SerdeConfigs.with(AdaptiveSerdeConfig.LADDER, "raw,lz4", AdaptiveSerdeConfig.FALLBACK_RUNG, 1))) {
            // The header is normative; the LZ4 payload may differ between LZ4 implementations.
            assertThat(Arrays.copyOf(ser.serialize("t", expected), 3)).isEqualTo(HEX.parseHex("ac 01 64"));
        }
    }

    @Test
    void lengthIsAnUnsignedLeb128Varint() {
        byte[] header = new byte[RecordFrame.MAX_HEADER_LENGTH];
        int n = RecordFrame.writeHeader(header, org.adaptivecompress.codec.CodecType.ZSTD, 300, 0x01020304);
        assertThat(Arrays.copyOf(header, n)).isEqualTo(HEX.parseHex("ac 12 ac 02 01 02 03 04"));
    }
}
