package org.adaptivecompress.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CompressibilitySampleTest {

    private static final int BLOCK = 128 * 1024;
    private final CompressibilitySample sample = new CompressibilitySample();

    @Test
    void randomBytesLookIncompressible() {
        for (int seed = 0; seed < 20; seed++) {
            byte[] random = DataKind.random(BLOCK, seed);
            assertThat(sample.looksCompressible(random, 0, BLOCK)).as("seed %d", seed).isFalse();
        }
    }

    @Test
    void aJpegLooksIncompressible() {
        byte[] jpeg = DataKind.JPEG.generate(BLOCK);
        assertThat(sample.looksCompressible(jpeg, 0, BLOCK)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = DataKind.class, names = {"TEXT", "HTML", "URLS", "PROTOBUF", "JSON_EVENTS", "LOG_LINES"})
    void dataZstdShrinksLooksCompressible(DataKind kind) {
        assertThat(sample.looksCompressible(kind.generate(BLOCK), 0, BLOCK)).isTrue();
    }

    @Test
    void aBlockWhoseLastQuarterIsTextLooksCompressible() {
        byte[] block = DataKind.RANDOM.generate(BLOCK);
        byte[] text = DataKind.TEXT.generate(BLOCK / 4);
        System.arraycopy(text, 0, block, BLOCK - text.length, text.length);
        assertThat(sample.looksCompressible(block, 0, BLOCK)).isTrue();
    }

    @Test
    void readsOnlyTheGivenRange() {
        byte[] buffer = DataKind.TEXT.generate(3 * BLOCK);
        byte[] random = DataKind.RANDOM.generate(BLOCK);
        System.arraycopy(random, 0, buffer, BLOCK, BLOCK);
        assertThat(sample.looksCompressible(buffer, BLOCK, BLOCK)).isFalse();
    }

    @Test
    void aBlockTooSmallToSampleIsWorthTrying() {
        byte[] random = DataKind.RANDOM.generate(2048);
        assertThat(sample.looksCompressible(random, 0, random.length)).isTrue();
    }
}
