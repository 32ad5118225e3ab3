package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class WritePatternsTest {

    @Test
    void parsesPatternsOfWriteSizes() {
        List<int[]> patterns = WritePatterns.parse("65536,20+65536+65536");

        assertThat(patterns).hasSize(2);
        assertThat(patterns.get(0)).containsExactly(65536);
        assertThat(patterns.get(1)).containsExactly(20, 65536, 65536);
        assertThatThrownBy(() -> WritePatterns.parse("0")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sendsEveryByteInEachPatternAndTimesEachCountedRound() throws Exception {
        // The receiver throws if a byte differs or is missing, which fails the measurement.
        List<WritePatterns.Result> results = WritePatterns.measure(WritePatterns.parse("65536,7+1000"), 3 << 20, 3);

        assertThat(results).extracting(WritePatterns.Result::pattern).containsExactly("65536", "7+1000");
        assertThat(results).allSatisfy(r -> {
            assertThat(r.seconds()).as("the first round warms up").hasSize(2).allSatisfy(s -> assertThat(s).isPositive());
            assertThat(r.median()).isCloseTo((r.seconds().get(0) + r.seconds().get(1)) / 2, within(1e-12));
        });
    }

    @Test
    void printsEachPatternsMedianAgainstTheFirst() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        int exit = WritePatterns.run(new String[] {"--rounds", "1", "--mib", "1", "--patterns", "65536,65556"},
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).isZero();
        assertThat(printed).contains("1 MiB over loopback TCP").contains("65536 ").contains("1.00x the first pattern's time")
                .contains("65556 ");
    }
}
