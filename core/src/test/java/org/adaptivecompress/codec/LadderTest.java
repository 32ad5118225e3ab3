package org.adaptivecompress.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LadderTest {

    @Test
    void parsesASpecIntoOrderedRungsAndPrintsItBack() {
        Ladder ladder = Ladder.parse("raw, lz4 ,lz4hc:9,zstd:-5,zstd:3,xz:6,deflate:1");

        assertThat(ladder.size()).isEqualTo(7);
        assertThat(ladder.top()).isEqualTo(6);
        assertThat(ladder.rung(0)).isEqualTo(Rung.RAW);
        assertThat(ladder.rung(2).codec()).isEqualTo(CodecType.LZ4);
        assertThat(ladder.rung(2).level()).isEqualTo(9);
        assertThat(ladder.rung(3).level()).isEqualTo(-5);
        assertThat(ladder.toString()).isEqualTo("raw,lz4,lz4hc:9,zstd:-5,zstd:3,xz:6,deflate:1");
        assertThat(Ladder.parse(ladder.toString())).isEqualTo(ladder);
    }

    @Test
    void levelsDefaultWhenOmitted() {
        assertThat(Ladder.parse("raw,lz4hc,zstd,xz,deflate").toString())
                .isEqualTo("raw,lz4hc:9,zstd:3,xz:6,deflate:6");
    }

    @Test
    void defaultLadderStartsRawAndParses() {
        assertThat(Ladder.defaultLadder().rung(0)).isEqualTo(Rung.RAW);
        assertThat(Ladder.defaultLadder().toString()).isEqualTo(Ladder.DEFAULT_SPEC);
    }

    @ParameterizedTest(name = "''{0}'' is rejected: {1}")
    @CsvSource(delimiter = '|', value = {
        "''|empty rung",
        "lz4,zstd:3|must start with raw",
        "raw,zstd:3,zstd:3|appears twice",
        "raw,snappy|unknown codec 'snappy'",
        "raw,zstd:fast|'fast' in rung spec 'zstd:fast' is not an integer",
        "raw,zstd:23|zstd level 23 is out of range",
        "raw,xz:10|xz level 10 is out of range",
        "raw,lz4:3|lz4 takes no level",
        "raw,,lz4|empty rung",
        "raw,deflate:0|deflate level 0 is out of range",
    })
    void badSpecsFailWithAMessageNamingTheProblem(String spec, String message) {
        assertThatThrownBy(() -> Ladder.parse(spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
