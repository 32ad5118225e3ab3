package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Map;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorruptValueTest {

    private static final Map<String, Object> CFG = SerdeConfigs.with(AdaptiveSerdeConfig.FALLBACK_RUNG, 2,
            AdaptiveSerdeConfig.MAX_VALUE_BYTES, 1 << 20);

    private static byte[] frame(String ladder, int rung) {
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(SerdeConfigs.with(
                AdaptiveSerdeConfig.LADDER, ladder, AdaptiveSerdeConfig.FALLBACK_RUNG, rung))) {
            return ser.serialize("t", DataKind.JSON_EVENTS.generate(4096));
        }
    }

    private static byte[] read(byte[] value) {
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(CFG)) {
            return de.deserialize("orders", value);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"raw", "lz4", "zstd:3", "xz:6", "deflate:6"})
    void everyTruncationOfAFrameIsASerializationException(String codec) {
        byte[] frame = frame("raw".equals(codec) ? "raw" : "raw," + codec, 1);
        for (int len = 0; len < frame.length; len++) {
            byte[] cut = Arrays.copyOf(frame, len);
            assertThatThrownBy(() -> read(cut)).as("%s cut to %d of %d bytes", codec, len, frame.length)
                    .isInstanceOf(SerializationException.class)
                    .isInstanceOf(AdaptiveFrameException.class)
                    .hasMessageContaining("topic orders");
        }
    }

    @Test
    void truncatedHeaderIsATruncatedFrameException() {
        byte[] frame = frame("raw,lz4", 1);
        assertThatThrownBy(() -> read(Arrays.copyOf(frame, 2))).isInstanceOf(TruncatedFrameException.class)
                .hasMessageContaining("shorter than the smallest frame");
        assertThatThrownBy(() -> read(new byte[] {(byte) 0xAC, 1, (byte) 0x80}))
                .isInstanceOf(TruncatedFrameException.class).hasMessageContaining("length field");
        byte[] raw = frame("raw", 0);
        assertThatThrownBy(() -> read(Arrays.copyOf(raw, raw.length - 1))).isInstanceOf(TruncatedFrameException.class)
                .hasMessageContaining("declares 4096 bytes but only 4095 follow");
    }

    @Test
    void unframedValueIsRefusedUnlessLegacyPassthroughIsOn() {
        byte[] legacy = "{\"id\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThatThrownBy(() -> read(legacy)).isInstanceOf(UnframedValueException.class)
                .hasMessageContaining("starts with 0x7b").hasMessageContaining("adaptive.legacy.passthrough");
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(
                SerdeConfigs.with(AdaptiveSerdeConfig.LEGACY_PASSTHROUGH, "true"))) {
            assertThat(de.deserialize("t", legacy)).isEqualTo(legacy);
            assertThat(de.deserialize("t", new byte[0])).isEmpty();
            byte[] framed = frame("raw,lz4", 1);
            assertThat(de.deserialize("t", framed)).isEqualTo(DataKind.JSON_EVENTS.generate(4096));

            DeserializerStatistics stats = de.statistics();
            assertThat(stats.unframedRecords()).isEqualTo(2);
            assertThat(stats.records(CodecType.LZ4)).isEqualTo(stats.totalRecords()).isEqualTo(1);
            assertThat(stats.bytesIn(CodecType.LZ4)).isEqualTo(framed.length);
            assertThat(stats.bytesOut(CodecType.LZ4)).isEqualTo(4096);
        }
    }

    @Test
    void headerFaultsNameTheFault() {
        assertThatThrownBy(() -> read(new byte[] {(byte) 0xAC, 0x20, 1, 0})).isInstanceOf(AdaptiveFrameException.class)
                .hasMessageContaining("reserved bits");
        assertThatThrownBy(() -> read(new byte[] {(byte) 0xAC, 0x0F, 1, 0})).isInstanceOf(AdaptiveFrameException.class)
                .hasMessageContaining("unknown codec id 15");
        assertThatThrownBy(() -> read(new byte[] {(byte) 0xAC, 0x11, 1, 0, 0, 0, 1, 0}))
                .isInstanceOf(AdaptiveFrameException.class).hasMessageContaining("only zstd frames use dictionaries");
        // 4 payload bytes: the least a zstd payload needs to hold a block at all
        assertThatThrownBy(() -> read(new byte[] {(byte) 0xAC, 0x12, 1, 0, 0, 0, 7, 0, 0, 0, 0}))
                .isInstanceOf(AdaptiveFrameException.class).hasMessageContaining("dictionary id 7");
        assertThatThrownBy(() -> read(new byte[] {(byte) 0xAC, 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, 1})).isInstanceOf(AdaptiveFrameException.class).hasMessageContaining("longer than 5 bytes");
    }

    @Test
    void declaredLengthAboveTheLimitIsRefusedBeforeAllocating() {
        // lz4, 2^31-1 bytes declared
        byte[] huge = {(byte) 0xAC, 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 0x10, 0x41};
        assertThatThrownBy(() -> read(huge)).isInstanceOf(OversizedValueException.class)
                .hasMessageContaining("2147483647").hasMessageContaining("adaptive.max.value.bytes=1048576");
    }

    /** A few payload bytes cannot make the reader allocate the declared megabyte: each codec's expansion is bounded. */
    @ParameterizedTest
    @ValueSource(strings = {"lz4", "zstd", "xz", "deflate"})
    void aShortPayloadDeclaringMoreThanItsCodecCanExpandToIsRefusedBeforeDecoding(String codec) {
        byte[] value = withHeader(codecNamed(codec), 1 << 20, new byte[5]);
        assertThatThrownBy(() -> read(value)).isInstanceOf(AdaptiveFrameException.class)
                .hasMessageContaining("topic orders")
                .hasMessageContaining("declares 1048576 bytes, but a 5-byte " + codec + " payload decodes to at most");
    }

    /** The value that once allocated 129 MiB (output and xz dictionary) before it failed. */
    @Test
    void aTinyXzValueDeclaringTheLargestValueIsRefusedBeforeAllocating() {
        byte[] value = withHeader(CodecType.XZ, 64 << 20, new byte[200]);
        assertThat(value.length).isEqualTo(206);
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(SerdeConfigs.with())) {
            assertThatThrownBy(() -> de.deserialize("orders", value)).isInstanceOf(AdaptiveFrameException.class)
                    .hasMessageContaining("declares 67108864 bytes, but a 200-byte xz payload decodes to at most "
                            + 200 * RecordFrame.LZMA_MAX_EXPANSION);
        }
    }

    /** The expansion bounds hold for the codecs' best case: long runs of one byte at fast and strong levels. */
    @ParameterizedTest
    @ValueSource(strings = {"lz4", "lz4hc:17", "zstd:1", "zstd:19", "xz:0", "xz:9", "deflate:1", "deflate:9"})
    void mostCompressibleValuesStillDecode(String rung) {
        byte[] zeros = new byte[16 << 20];
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(SerdeConfigs.with(
                AdaptiveSerdeConfig.LADDER, "raw," + rung, AdaptiveSerdeConfig.FALLBACK_RUNG, 1));
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(SerdeConfigs.with())) {
            byte[] frame = ser.serialize("t", zeros);
            assertThat(frame[1] & RecordFrame.CODEC_MASK).as("compressed, not raw").isNotZero();
            assertThat(de.deserialize("t", frame)).isEqualTo(zeros);
        }
    }

    @Test
    void aZstdFrameWhoseContentSizeContradictsTheDeclaredLengthIsRefusedBeforeDecoding() {
        byte[] frame = frame("raw,zstd:3", 1);
        byte[] payload = Arrays.copyOfRange(frame, RecordFrame.headerLength(4096, false), frame.length);
        byte[] lying = withHeader(CodecType.ZSTD, 1 << 20, payload);
        assertThatThrownBy(() -> read(lying)).isInstanceOf(AdaptiveFrameException.class)
                .hasMessageContaining("declares 1048576 bytes").hasMessageContaining("content size of 4096");
    }

    private static CodecType codecNamed(String name) {
        return Arrays.stream(CodecType.values()).filter(c -> c.specName().equals(name)).findFirst().orElseThrow();
    }

    private static byte[] withHeader(CodecType codec, int declared, byte[] payload) {
        byte[] value = new byte[RecordFrame.MAX_HEADER_LENGTH + payload.length];
        int header = RecordFrame.writeHeader(value, codec, declared, null);
        System.arraycopy(payload, 0, value, header, payload.length);
        return Arrays.copyOf(value, header + payload.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lz4", "zstd:3", "xz:6", "deflate:6"})
    void garbagePayloadIsACorruptFrameNotWrongBytes(String codec) {
        byte[] frame = frame("raw," + codec, 1);
        int header = RecordFrame.headerLength(4096, false);
        for (int i = header; i < frame.length; i++) {
            frame[i] = (byte) 0x5A;
        }
        assertThatThrownBy(() -> read(frame)).isInstanceOf(AdaptiveFrameException.class)
                .hasMessageContaining("corrupt or truncated");
    }
}
