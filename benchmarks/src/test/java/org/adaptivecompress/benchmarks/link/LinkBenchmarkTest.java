package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CI smoke run of the link benchmark: quick mode, a tiny input, two contenders. */
class LinkBenchmarkTest {

    @TempDir
    Path out;

    @Test
    void quickRunVerifiesEveryTransferAndWritesCsvMarkdownAndCharts() throws Exception {
        LinkConfig config = LinkConfig.parse("--quick", "--kinds", "json,changing", "--rates", "10mbit,unlimited",
                "--max-size", "256k", "--out", out.toString());
        List<Contender> two = Contender.all().stream()
                .filter(c -> c.name().equals("fixed:1 lz4") || c.name().equals("adoc")).toList();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        LinkBenchmark benchmark = new LinkBenchmark(config, two, new PrintStream(progress, true, StandardCharsets.UTF_8));
        List<Measurement> results = benchmark.measure();
        LinkReport.write(config, results, benchmark.perSegmentBest(), List.of());

        // 2 kinds x 2 rates + the step and CPU-contended scenarios, each for both contenders.
        assertThat(results).hasSize(12).allSatisfy(m -> assertThat(m.result().verified()).isTrue());
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("[ 12/12]");
        // Quick mode repeats nothing at a paced rate, but unthrottled and stepped transfers are
        // noisy enough to be run three times the usual repeats.
        assertThat(results).allSatisfy(m -> assertThat(m.runs())
                .isEqualTo(m.cell().rate().equals("10 Mbit/s") || m.cell().scenario().equals("cpu-contended") ? 1 : 3));
        List<String> csv = Files.readAllLines(out.resolve(LinkReport.CSV));
        assertThat(csv).hasSize(13).element(0).asString().startsWith("scenario,data,rate,contender");
        assertThat(csv.subList(1, 13)).allSatisfy(line -> assertThat(line).contains(",true,"));
        // Changing data at both rates (a segment per kind) and the step (three stretches of link rate),
        // each timed with the only fixed contender.
        assertThat(benchmark.perSegmentBest()).extracting(b -> b.cell().toString() + " " + b.choices()).containsExactly(
                "rate changing @ 10 Mbit/s [fixed:1 lz4, fixed:1 lz4, fixed:1 lz4, fixed:1 lz4]",
                "rate changing @ unthrottled [fixed:1 lz4, fixed:1 lz4, fixed:1 lz4, fixed:1 lz4]",
                "step json @ 1000->10->1000 Mbit/s [fixed:1 lz4, fixed:1 lz4, fixed:1 lz4]");
        assertThat(benchmark.perSegmentBest()).allSatisfy(b -> assertThat(b.seconds()).isPositive());
        assertThat(Files.readString(out.resolve(LinkReport.MARKDOWN))).contains("| rate json @ 10 Mbit/s | ",
                "fixed:1 lz4", "adoc <= 1.05x the best fixed choice", "per-segment best for rate changing @ 10 Mbit/s");
        assertThat(out.resolve("images/link-json.png")).isNotEmptyFile();
        assertThat(out.resolve("images/link-step-rungs.png")).isNotEmptyFile();
    }

    @Test
    void sendsThroughZstdAdaptWhenTheBinaryIsInstalled() throws Exception {
        assumeTrue(Contender.ZstdAdaptContender.installed(), "no zstd on the PATH");
        byte[] input = LinkData.TEXT.generate(300_000);

        LinkTransfer.Result r = LinkTransfer.run(new Contender.ZstdAdaptContender(), LinkInput.of(input), Long.MAX_VALUE,
                List.of());

        assertThat(r.verified()).isTrue();
        assertThat(r.wireBytes()).isLessThan(input.length / 2);
    }
}
