package org.adaptivecompress.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.LinkSimulation;
import org.adaptivecompress.testing.LinkSimulation.Profile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The throughput controller in a deterministic simulation (no wall time): it settles on the best
 * rung for every link rate and data kind, re-settles after the link steps, and does not flap on
 * noisy measurements. The same runs with {@link AdocController} are printed for comparison
 * (recorded, not asserted).
 */
class ControllerSimulationTest {

    /** The default ladder's rungs (raw, lz4, zstd:1, zstd:3, zstd:9, zstd:15, xz:6), figures from docs/LADDER.md. */
    static final Profile TEXT = Profile.ofMegabytes(
            new double[] {10_000, 945, 646, 463, 87, 11, 4.2}, new double[] {1, 2.51, 3.64, 3.76, 4.03, 4.18, 4.25});
    static final Profile JSON = Profile.ofMegabytes(
            new double[] {10_000, 1100, 800, 600, 120, 15, 5}, new double[] {1, 4.2, 6.0, 6.4, 7.4, 8.0, 8.8});
    static final Profile BINARY = Profile.ofMegabytes(
            new double[] {10_000, 1500, 500, 350, 70, 9, 3.5}, new double[] {1, 1.5, 1.75, 1.8, 1.9, 2.0, 2.2});
    static final Profile RANDOM = Profile.ofMegabytes(
            new double[] {10_000, 3000, 1500, 1000, 200, 20, 5}, new double[] {1, 0.996, 0.998, 0.999, 0.999, 0.999, 1.0});

    static final double[] LINKS = {125e3, 1.25e6, 12.5e6, 125e6, 1.25e9}; // 1 Mbit/s .. 10 Gbit/s
    private static final int BLOCK = 128 * 1024;
    private static final long FIFO = 4 << 20;
    private static final int BLOCKS = 200;
    private static final int SETTLE = 20;
    private static final List<String> COMPARISON = new ArrayList<>();

    static Stream<Arguments> linksAndKinds() {
        List<Arguments> all = new ArrayList<>();
        String[] names = {"text", "json", "binary", "random"};
        Profile[] profiles = {TEXT, JSON, BINARY, RANDOM};
        for (int k = 0; k < profiles.length; k++) {
            for (double link : LINKS) {
                all.add(Arguments.of(names[k], profiles[k], link));
            }
        }
        return all.stream();
    }

    private static LinkSimulation simulation(double noise) {
        return new LinkSimulation(BLOCK, FIFO, noise, 42);
    }

    /** Share of blocks in [from, to) at a rung delivering at least 95 % of the best rung's throughput. */
    private static double shareNearBest(LinkSimulation.Result result, Profile profile, double link, int from, int to) {
        return shareNear(result, profile, link, from, to, 0.95);
    }

    /** Share of blocks in [from, to) at a rung delivering at least {@code fraction} of the best rung's throughput. */
    private static double shareNear(LinkSimulation.Result result, Profile profile, double link, int from, int to,
            double fraction) {
        double best = profile.delivered(profile.bestRung(link), link);
        int good = 0;
        for (int i = from; i < to; i++) {
            if (profile.delivered(result.rung(i), link) >= fraction * best) {
                good++;
            }
        }
        return good / (double) (to - from);
    }

    @ParameterizedTest(name = "{0} over {2} B/s")
    @MethodSource("linksAndKinds")
    void settlesOnTheBestRungWithinTwentyBlocks(String kind, Profile profile, double link) {
        LinkSimulation.Result result = simulation(0.05).run(new ThroughputController(), BLOCKS, i -> profile, i -> link);

        // Departures allowed: probes of a neighbour, and dithering with a neighbour where that
        // beats any single rung (then the run as a whole must deliver at least the best rung's rate).
        assertThat(shareNearBest(result, profile, link, SETTLE, BLOCKS) >= 0.9
                || result.throughput() >= profile.delivered(profile.bestRung(link), link)).as(result.trace()).isTrue();
        record(kind, link, profile, result, simulation(0.05).run(new AdocController(), BLOCKS, i -> profile, i -> link));
    }

    @Test
    void resettlesWithinTwentyBlocksAfterTheLinkSteps() {
        double fast = 125e6;
        double slow = 1.25e6;
        LinkSimulation.Result result = simulation(0.05).run(new ThroughputController(), 3 * BLOCKS, i -> TEXT,
                i -> i < BLOCKS || i >= 2 * BLOCKS ? fast : slow);

        assertThat(shareNearBest(result, TEXT, fast, SETTLE, BLOCKS)).as(result.trace()).isGreaterThanOrEqualTo(0.9);
        assertThat(shareNearBest(result, TEXT, slow, BLOCKS + SETTLE, 2 * BLOCKS)).as(result.trace())
                .isGreaterThanOrEqualTo(0.9);
        assertThat(shareNearBest(result, TEXT, fast, 2 * BLOCKS + SETTLE, 3 * BLOCKS)).as(result.trace())
                .isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void followsTheDataWhenItsKindChanges() {
        Profile[] cycle = {JSON, RANDOM, TEXT, BINARY};
        double link = 12.5e6;
        LinkSimulation.Result result = simulation(0.05).run(new ThroughputController(), 4 * BLOCKS,
                i -> cycle[i / BLOCKS], i -> link);

        for (int phase = 0; phase < cycle.length; phase++) {
            assertThat(shareNearBest(result, cycle[phase], link, phase * BLOCKS + SETTLE, (phase + 1) * BLOCKS))
                    .as("phase %d: %s", phase, result.trace()).isGreaterThanOrEqualTo(0.85);
        }
    }

    @ParameterizedTest(name = "over {0} B/s")
    @ValueSource(doubles = {125e3, 1.25e6, 12.5e6})
    void compressesTheFirstBlockThatShrinksAgainWhenTheLinkHidesTryingIncompressibleData(double link) {
        // Kinds change every 5 blocks, as in the link benchmark's changing data on slow links.
        Profile[] cycle = {JSON, RANDOM, TEXT, RANDOM, BINARY};
        int segment = 5;
        LinkSimulation.Result result = simulation(0.05).run(new ThroughputController(), 8 * cycle.length * segment,
                i -> cycle[i / segment % cycle.length], i -> link);

        for (int k = 1; k * segment < result.blocks(); k++) {
            if (cycle[(k - 1) % cycle.length] == RANDOM) {
                assertThat(result.rung(k * segment)).as("block %d: %s", k * segment, result.trace()).isPositive();
            }
        }
    }

    @Test
    void doesNotFlapOnNoisyMeasurements() {
        for (double link : LINKS) {
            LinkSimulation.Result noisy = simulation(0.2).run(new ThroughputController(), 4 * BLOCKS, i -> TEXT,
                    i -> link);
            LinkSimulation.Result moderate = simulation(0.1).run(new ThroughputController(), 4 * BLOCKS, i -> TEXT,
                    i -> link);
            LinkSimulation.Result clean = simulation(0).run(new ThroughputController(), 4 * BLOCKS, i -> TEXT,
                    i -> link);
            // The stated bounds. With ±20 % noise on every speed and ratio it measures: the mean
            // rung of consecutive 8-block windows moves by a whole rung or more in at most 10 %
            // of the windows (a probe moves it by 1/8, dithering not at all), and throughput
            // stays within 10 % of the noise-free run. With ±10 % noise: 90 % of the blocks go
            // to rungs that deliver within 10 % of the best (noise may swap near-equal rungs,
            // never wander to poor ones), unless dithering beats the best rung outright.
            int windows = (4 * BLOCKS - SETTLE) / 8;
            assertThat(windowJumps(noisy, SETTLE, windows)).as("link %.0f: %s", link, noisy.trace())
                    .isLessThanOrEqualTo(windows / 10);
            assertThat(noisy.throughput()).as("link %.0f", link).isGreaterThan(0.9 * clean.throughput());
            assertThat(shareNear(moderate, TEXT, link, SETTLE, 4 * BLOCKS, 0.9) >= 0.9
                    || moderate.throughput() >= TEXT.delivered(TEXT.bestRung(link), link))
                    .as("link %.0f: %s", link, moderate.trace()).isTrue();
        }
    }

    /**
     * Random data and text by turns, 32 blocks each (4 MiB, as the link benchmark's changing
     * data), at 1000 Mbit/s through the stream's default 1 MiB FIFO. On this text zstd:1
     * compresses a little slower than the link takes its output and LZ4 a little faster than
     * the link takes its own, so block by block the model finds them about as good and mixes
     * them. The random stretch, sent raw, leaves the FIFO full, and that backlog carries
     * zstd:1 through the text after it: the link is busy either way, and fewer bytes cross it.
     * Fixed zstd:1 gets there by the same backlog, so the stream must do as well.
     */
    @Test
    void spendsTheBacklogOfAFastStretchOnTheBetterRatioOfTheNext() {
        Profile random = Profile.ofMegabytes(new double[] {10_000, 6000, 4000}, new double[] {1, 0.999, 0.999});
        Profile text = Profile.ofMegabytes(new double[] {10_000, 400, 215}, new double[] {1, 1.65, 2.35});
        IntFunction<Profile> data = i -> i / 32 % 2 == 0 ? random : text;
        double link = 125e6;

        LinkSimulation.Result adaptive = backlogSimulation().run(new ThroughputController(), 8 * 32, data, i -> link);
        LinkSimulation.Result lz4 = backlogSimulation().run(new FixedController(1), 8 * 32, data, i -> link);
        LinkSimulation.Result zstd1 = backlogSimulation().run(new FixedController(2), 8 * 32, data, i -> link);

        assertThat(adaptive.seconds()).as(adaptive.trace()).isLessThanOrEqualTo(zstd1.seconds());
        assertThat(zstd1.seconds()).isLessThan(lz4.seconds());
    }

    private static LinkSimulation backlogSimulation() {
        return new LinkSimulation(BLOCK, AdaptiveOutputStream.DEFAULT_FIFO_CAPACITY, 0.05, 42);
    }

    /**
     * On a link faster than every codec the controller holds raw, whose blocks the writer then
     * writes to the sink itself, so the FIFO stays empty: when the link drops, those writes must
     * tell the controller, or it would hold raw on a link that calls for zstd.
     */
    @Test
    void leavesRawWrittenDirectlyWhenTheLinkDrops() {
        double fast = 40e9;
        double slow = 12.5e6;
        LinkSimulation.Result result = new LinkSimulation(BLOCK, AdaptiveOutputStream.DEFAULT_FIFO_CAPACITY, 0.05, 42)
                .run(new ThroughputController(), 3 * BLOCKS, i -> JSON, i -> i < BLOCKS || i >= 2 * BLOCKS ? fast : slow);

        // Raw, with LZ4 dithered in on the fast link (one block in six here), then zstd:9 when
        // the link has dropped, then raw again.
        assertThat(rawShare(result, BLOCKS / 2, BLOCKS)).as(result.trace()).isGreaterThanOrEqualTo(0.75);
        assertThat(shareNearBest(result, JSON, slow, BLOCKS + SETTLE, 2 * BLOCKS)).as(result.trace())
                .isGreaterThanOrEqualTo(0.9);
        assertThat(rawShare(result, 2 * BLOCKS + BLOCKS / 2, 3 * BLOCKS)).as(result.trace()).isGreaterThanOrEqualTo(0.75);
    }

    private static double rawShare(LinkSimulation.Result result, int from, int to) {
        return IntStream.range(from, to).filter(i -> result.rung(i) == 0).count() / (double) (to - from);
    }

    /** How many consecutive 8-block windows from {@code from} differ in mean rung by 1 or more. */
    private static int windowJumps(LinkSimulation.Result result, int from, int windows) {
        int jumps = 0;
        double previous = Double.NaN;
        for (int w = 0; w < windows; w++) {
            double sum = 0;
            for (int i = 0; i < 8; i++) {
                sum += result.rung(from + 8 * w + i);
            }
            double mean = sum / 8;
            if (!Double.isNaN(previous) && Math.abs(mean - previous) >= 1) {
                jumps++;
            }
            previous = mean;
        }
        return jumps;
    }

    private static void record(String kind, double link, Profile profile, LinkSimulation.Result throughput,
            LinkSimulation.Result adoc) {
        double best = profile.delivered(profile.bestRung(link), link);
        COMPARISON.add(String.format(Locale.ROOT, "| %s | %.3g | %d | %.2f | %.2f |", kind, link * 8 / 1e6,
                profile.bestRung(link), throughput.throughput() / best, adoc.throughput() / best));
    }

    @AfterAll
    static void printComparison() {
        System.out.println("| data | link Mbit/s | best rung | throughput controller / best | AdOC / best |");
        System.out.println("|---|---:|---:|---:|---:|");
        COMPARISON.forEach(System.out::println);
    }
}
