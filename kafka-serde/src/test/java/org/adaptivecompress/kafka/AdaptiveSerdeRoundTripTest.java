package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class AdaptiveSerdeRoundTripTest {

    private static final int RECORD = 1024;

    private static List<byte[]> records(DataKind kind, int count) {
        byte[] data = kind.generate(count * RECORD);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(Arrays.copyOfRange(data, i * RECORD, (i + 1) * RECORD));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"raw", "lz4", "zstd:1", "zstd:19", "xz:6", "deflate:6", "lz4hc:9"})
    void everyRungRoundTripsEveryDataKind(String rungSpec) {
        Map<String, Object> cfg = SerdeConfigs.with(
                AdaptiveSerdeConfig.LADDER, "raw".equals(rungSpec) ? "raw" : "raw," + rungSpec,
                AdaptiveSerdeConfig.FALLBACK_RUNG, 1);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(cfg)) {
            for (DataKind kind : DataKind.values()) {
                for (byte[] r : records(kind, 20)) {
                    assertThat(de.deserialize("t", ser.serialize("t", r))).as(kind + " at " + rungSpec).isEqualTo(r);
                }
            }
        }
    }

    @Test
    void nullStaysNullSoTombstonesSurvive() {
        Map<String, Object> cfg = SerdeConfigs.with();
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(cfg)) {
            assertThat(ser.serialize("t", new RecordHeaders(), null)).isNull();
            assertThat(de.deserialize("t", new RecordHeaders(), (byte[]) null)).isNull();
            assertThat(ser.statistics().totalRecords()).isZero();
        }
    }

    @Test
    void emptyValueStaysEmptyNotNull() {
        Map<String, Object> cfg = SerdeConfigs.with();
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(cfg)) {
            byte[] frame = ser.serialize("t", new byte[0]);
            assertThat(frame).hasSize(3);
            assertThat(de.deserialize("t", frame)).isEmpty();
        }
    }

    @Test
    void keysUseTheKeyDelegates() {
        Map<String, Object> cfg = SerdeConfigs.with(
                AdaptiveSerdeConfig.KEY_DELEGATE_SERIALIZER, StringSerializer.class.getName(),
                AdaptiveSerdeConfig.KEY_DELEGATE_DESERIALIZER, StringDeserializer.class.getName(),
                AdaptiveSerdeConfig.MIN_COMPRESS_BYTES, 0);
        try (AdaptiveSerializer<String> ser = new AdaptiveSerializer<>();
                AdaptiveDeserializer<String> de = new AdaptiveDeserializer<>()) {
            ser.configure(cfg, true);
            de.configure(cfg, true);
            String key = "user-42/user-42/user-42/user-42/user-42/user-42/user-42/user-42";
            byte[] frame = ser.serialize("t", key);
            assertThat(frame.length).isLessThan(key.getBytes(StandardCharsets.UTF_8).length);
            assertThat(de.deserialize("t", frame)).isEqualTo(key);
        }
    }

    @Test
    void valuesUnderTheThresholdGoRawWithThreeBytesOfOverhead() {
        Map<String, Object> cfg = SerdeConfigs.with(AdaptiveSerdeConfig.MIN_COMPRESS_BYTES, 100);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg)) {
            byte[] small = new byte[99];
            byte[] frame = ser.serialize("t", small);
            assertThat(frame).hasSize(99 + 3);
            assertThat(frame[1]).isEqualTo((byte) 0);
            assertThat(ser.serialize("t", new byte[100]).length).isLessThan(100);
        }
    }

    @Test
    void incompressibleRecordsAreStoredRawAndSkipped() {
        Map<String, Object> cfg = SerdeConfigs.with(AdaptiveSerdeConfig.FALLBACK_RUNG, 3);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg)) {
            for (byte[] r : records(DataKind.RANDOM, 200)) {
                assertThat(ser.serialize("t", r)).hasSize(r.length + 4);
            }
            SerializerStatistics stats = ser.statistics();
            assertThat(stats.records(0)).isEqualTo(200);
            assertThat(stats.incompressibleRecords()).isEqualTo(200);
        }
    }

    @Test
    void withoutTheInterceptorEveryRecordUsesTheFallbackRung() {
        Map<String, Object> cfg = SerdeConfigs.with("client.id", "no-interceptor", AdaptiveSerdeConfig.FALLBACK_RUNG, 2);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg)) {
            for (byte[] r : records(DataKind.JSON_EVENTS, 500)) {
                ser.serialize("t", r);
            }
            SerializerStatistics stats = ser.statistics();
            assertThat(stats.adaptive()).isFalse();
            assertThat(stats.records(2)).isEqualTo(500);
            assertThat(stats.decisions()).isZero();
        }
    }

    @Test
    void concurrentThreadsShareOneSerializerAndDeserializer() throws Exception {
        Map<String, Object> cfg = SerdeConfigs.with(AdaptiveSerdeConfig.FALLBACK_RUNG, 3);
        List<byte[]> input = records(DataKind.LOG_LINES, 2000);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(cfg)) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int first = t;
                results.add(pool.submit(() -> {
                    for (int i = first; i < input.size(); i += 4) {
                        if (!Arrays.equals(de.deserialize("t", ser.serialize("t", input.get(i))), input.get(i))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
            assertThat(ser.statistics().records(3)).isEqualTo(2000);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void instancesAroundADelegateWorkUnconfiguredAndAfterConfiguring() {
        String value = "{\"event\":\"click\",\"user\":42}".repeat(40);
        try (AdaptiveSerializer<String> ser = new AdaptiveSerializer<>(new StringSerializer());
                AdaptiveDeserializer<String> de = new AdaptiveDeserializer<>(
                        new StringDeserializer())) {
            byte[] frame = ser.serialize("t", value);
            assertThat(frame.length).as("compressed at the fallback rung").isLessThan(value.length() / 4);
            assertThat(de.deserialize("t", frame)).isEqualTo(value);
            ser.configure(Map.of(AdaptiveSerdeConfig.FALLBACK_RUNG, "0"), false);
            de.configure(Map.of(AdaptiveSerdeConfig.MAX_VALUE_BYTES, "100"), false);
            assertThat(ser.serialize("t", value).length).as("raw now").isGreaterThan(value.length());
            assertThatThrownBy(() -> de.deserialize("t", frame)).isInstanceOf(OversizedValueException.class);
        }
    }
}
