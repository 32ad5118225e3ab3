package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DictionaryTest {

    @TempDir
    Path dir;

    private static List<byte[]> records(int count, int size, int skip) {
        byte[] data = DataKind.JSON_EVENTS.generate((skip + count) * size);
        List<byte[]> out = new ArrayList<>();
        for (int i = skip; i < skip + count; i++) {
            out.add(Arrays.copyOfRange(data, i * size, (i + 1) * size));
        }
        return out;
    }

    private Path trainedDictionary() throws IOException {
        Path lines = dir.resolve("samples.jsonl");
        Files.write(lines, DataKind.JSON_EVENTS.generate(2 << 20));
        Path dict = dir.resolve("events.dict");
        DictionaryTrainer.main(new String[] {lines.toString(), dict.toString(), "16384"});
        return dict;
    }

    @Test
    void dictionaryShrinksSmallRecordsAndRoundTrips() throws IOException {
        Path dict = trainedDictionary();
        assertThat(Zstd.getDictIdFromDict(Files.readAllBytes(dict))).isNotZero();
        Map<String, Object> plain = SerdeConfigs.with(AdaptiveSerdeConfig.FALLBACK_RUNG, 3);
        Map<String, Object> withDict = SerdeConfigs.with(AdaptiveSerdeConfig.FALLBACK_RUNG, 3,
                AdaptiveSerdeConfig.ZSTD_DICTIONARIES, dict.toString());
        List<byte[]> input = records(2000, 512, 5000); // not the training samples
        try (AdaptiveSerializer<byte[]> a = SerdeConfigs.serializer(plain);
                AdaptiveSerializer<byte[]> b = SerdeConfigs.serializer(withDict);
                AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(withDict)) {
            for (byte[] r : input) {
                a.serialize("t", r);
                byte[] frame = b.serialize("t", r);
                assertThat(frame[1] & RecordFrame.FLAG_DICTIONARY).isNotZero();
                assertThat(de.deserialize("t", frame)).isEqualTo(r);
            }
            assertThat(b.statistics().totalBytesOut()).as("with dictionary vs without")
                    .isLessThan(a.statistics().totalBytesOut() * 3 / 4);
        }
    }

    @Test
    void valuesOverTheLimitGoWithoutTheDictionaryUnlessTheLimitIsRaised() throws IOException {
        Path dict = trainedDictionary();
        byte[] large = records(1, 10 * 1024, 0).get(0);
        try (AdaptiveSerializer<byte[]> byDefault = SerdeConfigs.serializer(SerdeConfigs.with(
                AdaptiveSerdeConfig.FALLBACK_RUNG, 3, AdaptiveSerdeConfig.ZSTD_DICTIONARIES, dict.toString()));
                AdaptiveSerializer<byte[]> raised = SerdeConfigs.serializer(SerdeConfigs.with(
                        AdaptiveSerdeConfig.FALLBACK_RUNG, 3, AdaptiveSerdeConfig.ZSTD_DICTIONARIES, dict.toString(),
                        AdaptiveSerdeConfig.DICTIONARY_MAX_VALUE_BYTES, 16 * 1024))) {
            assertThat(byDefault.serialize("t", large)[1] & RecordFrame.FLAG_DICTIONARY).isZero();
            assertThat(raised.serialize("t", large)[1] & RecordFrame.FLAG_DICTIONARY).isNotZero();
            assertThat(raised.statistics().recordsWithDictionary()).isEqualTo(1);
        }
    }

    @Test
    void readerWithoutTheDictionaryNamesItsId() throws IOException {
        Path dict = trainedDictionary();
        long id = Zstd.getDictIdFromDict(Files.readAllBytes(dict));
        byte[] frame;
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(SerdeConfigs.with(
                AdaptiveSerdeConfig.FALLBACK_RUNG, 3, AdaptiveSerdeConfig.ZSTD_DICTIONARIES, dict.toString()))) {
            frame = ser.serialize("t", records(1, 1024, 0).get(0));
        }
        try (AdaptiveDeserializer<byte[]> de = SerdeConfigs.deserializer(SerdeConfigs.with())) {
            assertThatThrownBy(() -> de.deserialize("t", frame)).isInstanceOf(DictionaryUnavailableException.class)
                    .hasMessageContaining("dictionary id " + id)
                    .satisfies(e -> assertThat(((DictionaryUnavailableException) e).dictionaryId()).isEqualTo(id));
        }
    }

    @Test
    void zstdRefusesADictionaryWithDamagedTables() throws IOException {
        byte[] good = Files.readAllBytes(trainedDictionary());
        assertThat(ZstdDictionary.problem(good, good.length)).isNull();
        assertThat(ZstdDictionary.problem(good, good.length - 1)).contains("over the limit");
        byte[] damaged = good.clone();
        for (int i = 8; i < 136; i++) {
            damaged[i] = (byte) 0xFF; // the entropy tables follow the magic and the id
        }
        assertThat(ZstdDictionary.problem(damaged, damaged.length)).contains("zstd refuses");
        byte[] rawContent = Arrays.copyOfRange(good, 1000, 5000);
        assertThat(ZstdDictionary.problem(rawContent, rawContent.length)).contains("with an id");
    }

    @Test
    void fileThatIsNotADictionaryIsAConfigError() throws IOException {
        Path notDict = dir.resolve("not.dict");
        Files.write(notDict, "plain text".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> SerdeConfigs.serializer(SerdeConfigs.with(
                AdaptiveSerdeConfig.ZSTD_DICTIONARIES, notDict.toString())))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not.dict");
    }
}
