package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.net.QdiscCounters;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report from hand-made results: the CSV, the scenarios-by-rates table, the calibration, the charts. */
class LinkReportTest {

    @TempDir
    Path out;

    @Test
    void writesEveryMeasurementTheTablesTargetsCalibrationAndCharts() throws Exception {
        LinkConfig config = LinkConfig.parse("--rates", "10mbit,unlimited", "--out", out.toString());
        List<Measurement> all = new ArrayList<>();
        all.addAll(Fixtures.cellOf(Fixtures.cell("mixed:7001", "10mbit"), 2.05, 2, 0.5, 0.48, 0.6));
        all.addAll(Fixtures.cellOf(Fixtures.cell("mixed:7001", "unlimited"), 0.5, 0.52, 2, 0.54, 3));
        LinkReport.Results results = new LinkReport.Results(all, List.of(), List.of(),
                Map.of(Rates.parse("10mbit"), new QdiscCounters(2_000_000, 2000, 0)), List.of("a note"));

        LinkReport.write(config, new Environment(List.of("link: test")), results);

        List<String> csv = Files.readAllLines(out.resolve(LinkReport.CSV));
        assertThat(csv).hasSize(11);
        assertThat(csv.get(0)).startsWith("set,cell,scenario,rate,contender,input_bytes,seconds,wire_bytes,verified");
        assertThat(csv.get(4)).startsWith("held-out,rate,mixed:7001,10 Mbit/s,default,1048576,0.4800,");
        String md = Files.readString(out.resolve(LinkReport.MARKDOWN));
        assertThat(md).contains("- link: test", "| mixed:7001 | mixed:7001 data | 0.96 (zstd:3) / 0.80 | 1.04 (raw) / 0.18 |",
                "| geometric mean | default / best fixed | 0.960 | 1.038 |", "(c) unthrottled",
                "| 10 Mbit/s | 4.1 Mbit/s | 40.9 % |", "1000 B | 0 |", "- a note");
        assertThat(out.resolve("images/link-default-vs-best-fixed.png")).isNotEmptyFile();
    }

    @Test
    void quotesCsvFieldsThatHoldACommaOrAQuote() {
        assertThat(LinkReport.csvField("100 Mbit/s")).isEqualTo("100 Mbit/s");
        assertThat(LinkReport.csvField("100 Mbit/s, a core busy")).isEqualTo("\"100 Mbit/s, a core busy\"");
        assertThat(LinkReport.csvField("say \"x\"")).isEqualTo("\"say \"\"x\"\"\"");
    }
}
