package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DictionarySamplerTest {

    private static byte[] value(int length, int tag) {
        byte[] v = new byte[length];
        v[0] = (byte) tag;
        return v;
    }

    @Test
    void keepsTheNewestValuesWithinItsCountAndFillsAtIt() {
        DictionarySampler s = new DictionarySampler(3, 1 << 20, 1, 1024);
        assertThat(s.offer(value(10, 1))).isFalse();
        assertThat(s.offer(value(10, 2))).isFalse();
        assertThat(s.offer(value(10, 3))).isTrue();
        s.offer(value(10, 4));
        assertThat(s.snapshot()).extracting(v -> (int) v[0]).containsExactly(2, 3, 4);
        assertThat(s.newest(2)).extracting(v -> (int) v[0]).containsExactly(3, 4);
        assertThat(s.newest(9)).hasSize(3);
    }

    @Test
    void keepsWithinItsBytesAndFillsAtNineTenthsOfThem() {
        DictionarySampler s = new DictionarySampler(1000, 1000, 1, 1024);
        for (int i = 0; i < 8; i++) {
            assertThat(s.offer(value(100, i))).isFalse();
        }
        assertThat(s.offer(value(100, 8))).isTrue();
        s.offer(value(300, 9));
        List<byte[]> held = s.snapshot();
        assertThat(held.stream().mapToInt(v -> v.length).sum()).isLessThanOrEqualTo(1000);
        assertThat(held.get(held.size() - 1)[0]).isEqualTo((byte) 9);
    }

    @Test
    void skipsShortAndLongValuesAndKeepsOneInStride() {
        DictionarySampler s = new DictionarySampler(100, 1 << 20, 64, 1024);
        s.offer(value(63, 0));
        s.offer(value(1025, 0));
        assertThat(s.size()).isZero();
        assertThat(s.keptAny()).isFalse();
        s.stride(4);
        for (int i = 0; i < 8; i++) {
            s.offer(value(64, i));
        }
        assertThat(s.snapshot()).extracting(v -> (int) v[0]).containsExactly(0, 4);
        assertThat(s.keptAny()).isTrue();
        s.clear();
        assertThat(s.size()).isZero();
    }

    @Test
    void copiesWhatItKeeps() {
        DictionarySampler s = new DictionarySampler(10, 1 << 20, 1, 1024);
        byte[] v = value(10, 7);
        s.offer(v);
        v[0] = 9;
        assertThat(s.snapshot().get(0)[0]).isEqualTo((byte) 7);
    }
}
