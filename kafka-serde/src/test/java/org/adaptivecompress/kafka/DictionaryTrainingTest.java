package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;

class DictionaryTrainingTest {

    static List<byte[]> records(byte[] data, int size) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i + size <= data.length; i += size) {
            out.add(Arrays.copyOfRange(data, i, i + size));
        }
        return out;
    }

    @Test
    void smallJsonRecordsGainSeveralTimesOnValuesTheDictionaryDidNotSee() {
        DictionaryTraining.Result r = DictionaryTraining.train(
                records(DataKind.jsonEvents(1 << 20, 7001), 1024), 16 * 1024, 1 << 20);
        assertThat(r.dictionary.bytes.length).isLessThanOrEqualTo(16 * 1024);
        assertThat(r.gain).isGreaterThan(1.5);
        List<byte[]> other = records(DataKind.jsonEvents(256 << 10, 7002), 1024);
        assertThat(DictionaryTraining.gain(r.dictionary, other)).as("another seed of the same shape").isGreaterThan(1.5);
        List<byte[]> text = records(DataKind.TEXT.generate(256 << 10), 1024);
        assertThat(DictionaryTraining.gain(r.dictionary, text)).as("another shape")
                .isLessThan(DictionaryTraining.gain(r.dictionary, other) * 0.75);
    }

    @Test
    void randomValuesGainNothing() {
        List<byte[]> random = records(DataKind.RANDOM.generate(512 << 10), 1024);
        double gain;
        try {
            gain = DictionaryTraining.train(random, 16 * 1024, 1 << 20).gain;
        } catch (IllegalArgumentException e) {
            return; // zstd may refuse to train on random bytes at all: just as good
        }
        assertThat(gain).isLessThan(1.05);
    }

    @Test
    void tooFewSamplesAreRefused() {
        assertThatThrownBy(() -> DictionaryTraining.train(records(new byte[19 * 100], 100), 1024, 1 << 20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 20");
    }
}
