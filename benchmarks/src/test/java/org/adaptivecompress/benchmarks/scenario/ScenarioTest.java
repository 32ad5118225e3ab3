package org.adaptivecompress.benchmarks.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.github.luben.zstd.Zstd;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The seeded scenario generator: determinism, lengths, piece sizes, shares of random bytes. */
class ScenarioTest {

    static List<Scenario> everyScenario() {
        return Arrays.stream(ScenarioSet.values()).flatMap(s -> s.scenarios().stream()).toList();
    }

    @ParameterizedTest
    @MethodSource("everyScenario")
    void theSameSeedMakesTheSameBytesAndAShorterLengthIsAPrefix(Scenario scenario) {
        byte[] longer = scenario.generate(3 << 20);
        byte[] again = new Scenario(scenario.family(), scenario.seed()).generate(3 << 20);
        byte[] shorter = scenario.generate(1_234_567);

        assertThat(again).isEqualTo(longer);
        assertThat(shorter).hasSize(1_234_567).isEqualTo(Arrays.copyOf(longer, shorter.length));
    }

    @ParameterizedTest
    @EnumSource(Family.class)
    void anotherSeedMakesOtherBytes(Family family) {
        assertThat(new Scenario(family, 1).generate(1 << 20)).isNotEqualTo(new Scenario(family, 2).generate(1 << 20));
    }

    @ParameterizedTest
    @MethodSource("everyScenario")
    void piecesTileTheLengthAndStayInTheMixsRangeWhichStaysIn64KiBTo64MiB(Scenario scenario) {
        Mix mix = scenario.mix();
        long length = 300L * mix.maxPiece();
        List<Piece> pieces = scenario.pieces(length);

        assertThat(mix.minPiece()).isGreaterThanOrEqualTo(64 << 10);
        assertThat(mix.maxPiece()).isLessThanOrEqualTo(Family.MAX_PIECE);
        long next = 0;
        for (Piece p : pieces) {
            assertThat(p.offset()).isEqualTo(next);
            next += p.length();
        }
        assertThat(next).isEqualTo(length);
        assertThat(pieces.subList(0, pieces.size() - 1)).allSatisfy(p -> assertThat(p.length())
                .isBetween(mix.minPiece(), mix.maxPiece()));
        assertThat(pieces).extracting(Piece::kind).allMatch(k -> k == PieceKind.RANDOM || mix.kinds().contains(k));
    }

    @ParameterizedTest
    @MethodSource("everyScenario")
    void theShareOfRandomBytesIsTheMixs(Scenario scenario) {
        Mix mix = scenario.mix();
        long length = 300L * mix.maxPiece();
        long random = scenario.pieces(length).stream().filter(p -> p.kind() == PieceKind.RANDOM)
                .mapToLong(Piece::length).sum();

        assertThat((double) random / length).isCloseTo(mix.incompressibleShare(), within(0.01));
    }

    @Test
    void familiesDrawTheirPromisedRanges() {
        for (Scenario s : everyScenario()) {
            Mix mix = s.mix();
            switch (s.family()) {
                case HOMOGENEOUS -> assertThat(mix.kinds()).hasSize(1).allMatch(PieceKind.COMPRESSIBLE::contains);
                case MIXED -> {
                    assertThat(mix.kinds()).hasSizeBetween(1, 3);
                    assertThat(mix.incompressibleShare()).isBetween(0.10, 0.30);
                    assertThat(List.of(mix.minPiece(), mix.maxPiece())).containsExactly(1 << 20, 4 << 20);
                }
                case INCOMPRESSIBLE_HEAVY -> assertThat(mix.incompressibleShare()).isBetween(0.30, 0.60);
                case FAST_CHANGING -> {
                    assertThat(mix.kinds()).hasSizeBetween(2, 3);
                    assertThat(List.of(mix.minPiece(), mix.maxPiece())).containsExactly(64 << 10, 512 << 10);
                }
            }
            assertThat(s.description()).startsWith(s.family().label() + ": ").contains("pieces ");
        }
    }

    @Test
    void randomPiecesAreIncompressibleAndSlicesOfASmallFileDoNotMatchEachOther() {
        // 2 MiB of a 120 KiB JPEG: without each slice's own byte map, zstd would find the copies.
        byte[] jpeg = new byte[2 << 20];
        PieceKind.JPEG.fill(jpeg, 0, jpeg.length, 5);
        byte[] random = new byte[1 << 20];
        PieceKind.RANDOM.fill(random, 0, random.length, 5);
        byte[] json = new byte[1 << 20];
        PieceKind.JSON.fill(json, 0, json.length, 5);

        assertThat((double) Zstd.compress(jpeg, 9).length / jpeg.length).isGreaterThan(0.9);
        assertThat((double) Zstd.compress(random, 3).length / random.length).isGreaterThan(0.99);
        assertThat((double) Zstd.compress(json, 3).length / json.length).isLessThan(0.5);
    }

    @Test
    void setsCoverEveryFamilyWithDifferentSeeds() {
        for (ScenarioSet set : ScenarioSet.values()) {
            assertThat(set.scenarios()).extracting(Scenario::family).containsAll(List.of(Family.values()));
            assertThat(set.mixedScenario().family()).isEqualTo(Family.MIXED);
        }
        assertThat(ScenarioSet.TUNING.seeds()).doesNotContain(ScenarioSet.HELD_OUT.seeds());
    }

    @Test
    void namesParseBack() {
        Scenario s = new Scenario(Family.INCOMPRESSIBLE_HEAVY, 7002);

        assertThat(Scenario.parse(s.name())).isEqualTo(s);
        assertThat(s.name()).isEqualTo("incompressible-heavy:7002");
        assertThatThrownBy(() -> Scenario.parse("mixed")).hasMessageContaining("family:seed");
        assertThatThrownBy(() -> Scenario.parse("odd:1")).hasMessageContaining("unknown scenario family");
        assertThatThrownBy(() -> ScenarioSet.byLabel("all")).hasMessageContaining("held-out or tuning");
    }

    @Test
    void theUniqueCapExceedsEveryCodecsWindow() {
        assertThat(Scenario.MAX_UNIQUE_BYTES).isGreaterThan(8 << 20);
        assertThatThrownBy(() -> new Scenario(Family.MIXED, 1).generate(Scenario.MAX_UNIQUE_BYTES + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
