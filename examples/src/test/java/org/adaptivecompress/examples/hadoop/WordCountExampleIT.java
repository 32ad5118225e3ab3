package org.adaptivecompress.examples.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WordCountExampleIT {

    @TempDir
    Path dir;

    @Test
    void theJobCountsEveryWordAsAPlainJavaCountDoes() throws Exception {
        Path input = WordCountExample.sampleInput(dir.resolve("input"));

        WordCountExample.Result r = WordCountExample.run(input, dir.resolve("work"));

        assertThat(r.counts()).isNotEmpty().isEqualTo(plainCount(input));
        // a local disk keeps up with any rung, so the codec may well store raw: no ratio is asserted
        assertThat(r.mapOutputMaterializedBytes()).isPositive();
        assertThat(r.jobOutputTextBytes()).isPositive();
        assertThat(r.jobOutputFiles()).isNotEmpty().allMatch(name -> name.endsWith(".adc"));
    }

    private static Map<String, Integer> plainCount(Path input) throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(input)) {
            files = s.toList();
        }
        for (Path file : files) {
            // Hadoop's Text decodes invalid UTF-8 the same way: replacement characters
            for (String line : new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\r?\n|\r")) {
                StringTokenizer it = new StringTokenizer(line);
                while (it.hasMoreTokens()) {
                    counts.merge(it.nextToken(), 1, Integer::sum);
                }
            }
        }
        return counts;
    }
}
