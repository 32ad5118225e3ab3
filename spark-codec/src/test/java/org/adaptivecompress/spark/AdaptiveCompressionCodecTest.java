package org.adaptivecompress.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.testing.DataKind;
import org.apache.spark.SparkConf;
import org.apache.spark.io.CompressionCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class AdaptiveCompressionCodecTest {

    private static byte[] roundTrip(CompressionCodec codec, byte[] data) throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = codec.compressedOutputStream(sink)) {
            out.write(data);
        }
        try (InputStream in = codec.compressedInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
            return in.readAllBytes();
        }
    }

    @ParameterizedTest
    @EnumSource(DataKind.class)
    void streamsRoundTripEveryKindOfData(DataKind kind) throws Exception {
        byte[] data = kind.generate(1 << 20);

        assertThat(roundTrip(new AdaptiveCompressionCodec(new SparkConf(false)), data)).isEqualTo(data);
    }

    @Test
    void sparkCreatesItByClassNameAndItsSettingsApply() throws Exception {
        SparkConf conf = new SparkConf(false).set(AdaptiveCompressionCodec.CONTROLLER, "fixed:3")
                .set(AdaptiveCompressionCodec.BLOCK_SIZE, "64k");
        CompressionCodec codec = CompressionCodec.createCodec(conf, AdaptiveCompressionCodec.class.getName());
        long blocksBefore = ((AdaptiveCompressionCodec) codec).statistics().blocks(3);
        byte[] data = DataKind.TEXT.generate(1 << 20);

        assertThat(roundTrip(codec, data)).isEqualTo(data);
        assertThat(((AdaptiveCompressionCodec) codec).statistics().blocks(3) - blocksBefore)
                .as("1 MiB in 64 KiB blocks, all at zstd:3").isEqualTo(16);
    }

    @Test
    void pinsZstd1ByDefaultOrTheTopOfAShorterLadder() throws Exception {
        AdaptiveCompressionCodec codec = new AdaptiveCompressionCodec(new SparkConf(false));
        long before = codec.statistics().blocks(2);
        roundTrip(codec, DataKind.TEXT.generate(1 << 20));
        assertThat(codec.statistics().blocks(2) - before).isEqualTo(8);

        AdaptiveCompressionCodec lz4Only = new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.LADDER, "raw,lz4"));
        roundTrip(lz4Only, DataKind.TEXT.generate(1 << 20));
        assertThat(lz4Only.statistics().blocks(1)).isEqualTo(8);
    }

    @Test
    void aBadSettingNamesItsKey() {
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.CONTROLLER, "fastest")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark.io.compression.adaptive.controller");
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.LADDER, "lz4,zstd:3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark.io.compression.adaptive.ladder");
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.BLOCK_SIZE, "12")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark.io.compression.adaptive.blockSize");
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.FIFO_CAPACITY, "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark.io.compression.adaptive.fifoCapacity");
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.MAX_WORKERS, "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark.io.compression.adaptive.maxWorkers");
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.OBJECTIVE, "cheapest")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark.io.compression.adaptive.objective");
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.OBJECTIVE, "cpu-budget:0.5")))
                .as("the default fixed rung takes time only").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs the model controller");
        new AdaptiveCompressionCodec(new SparkConf(false).set(AdaptiveCompressionCodec.CONTROLLER, "model")
                .set(AdaptiveCompressionCodec.OBJECTIVE, "cpu-budget:0.5"));
        assertThatThrownBy(() -> new AdaptiveCompressionCodec(new SparkConf(false)
                .set(AdaptiveCompressionCodec.CONTROLLER, "fixed:9")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fixed:9");
    }

    @Test
    void aDamagedStreamFailsTyped() throws Exception {
        AdaptiveCompressionCodec codec = new AdaptiveCompressionCodec(new SparkConf(false));
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = codec.compressedOutputStream(sink)) {
            out.write(DataKind.JSON_EVENTS.generate(300_000));
        }
        byte[] damaged = sink.toByteArray();
        damaged[damaged.length / 2] ^= 0x40;

        assertThatThrownBy(() -> codec.compressedInputStream(new ByteArrayInputStream(damaged)).readAllBytes())
                .isInstanceOf(FrameFormatException.class);
    }
}
