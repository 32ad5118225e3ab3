package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of the whole benchmark: {@code link --quick} on whichever link this machine has. */
class LinkBenchmarkIT {

    @TempDir
    Path out;

    @Test
    @Timeout(180)
    void aQuickRunVerifiesEveryTransferAndWritesTheReport() throws Exception {
        int exit = LinkBenchmark.run("--quick", "--out", out.toString());

        assertThat(exit).isZero();
        List<String> csv = Files.readAllLines(out.resolve(LinkReport.CSV));
        // 4 scenarios x 2 rates x 6 contenders, the step cell (6), its 3 stretches x 3 fixed rungs, the busy cell (6).
        assertThat(csv).hasSize(1 + 48 + 6 + 9 + 6);
        assertThat(csv.subList(1, csv.size())).allSatisfy(l -> assertThat(l).contains(",true,false,"));
        assertThat(Files.readString(out.resolve(LinkReport.MARKDOWN))).contains("### Targets", "### Calibration",
                "| step 1 Gbit/s -> 10 Mbit/s -> 1 Gbit/s |", "netem");
        assertThat(out.resolve("images/link-step-rungs.png")).isNotEmptyFile();
    }
}
