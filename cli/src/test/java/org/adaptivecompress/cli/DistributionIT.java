package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution {@code mvn package} makes, as a user gets it: its launcher, run by bash in
 * its own process with the jars in its {@code lib/}, compresses and decompresses a file, says
 * its version, and reports a user's error in one line.
 */
class DistributionIT {

    private static Path launcher;

    @TempDir
    Path dir;

    @BeforeAll
    static void findTheUnpackedDistribution() throws IOException {
        Path target = Path.of("target");
        try (Stream<Path> found = Files.find(target, 4,
                (p, a) -> p.endsWith(Path.of("bin", "adaptive-compress")) && p.toString().contains("adaptive-compress-"))) {
            List<Path> launchers = found.collect(Collectors.toList());
            assertThat(launchers).as("the distribution unpacked under target/ by mvn package").hasSize(1);
            launcher = launchers.get(0).toAbsolutePath();
        }
        assertThat(launcher.getParent().resolveSibling("lib")).isDirectory();
        assertThat(Files.isExecutable(launcher)).isTrue();
        try (Stream<Path> tars = Files.list(target)) {
            assertThat(tars.map(p -> p.getFileName().toString())).anyMatch(n -> n.matches("adaptive-compress-.+\\.tar\\.gz"));
        }
    }

    @Test
    void itsLauncherCompressesAndDecompressesAFile() throws Exception {
        byte[] data = DataKind.MIXED.generate(3 << 20);
        Path file = Files.write(dir.resolve("data.bin"), data);

        Result compress = run("-v", "-9", "--rm", file.toString());
        assertThat(compress.exit).as(compress.err).isZero();
        assertThat(compress.err).contains("data.bin: 3,145,728 -> ").contains("blocks per rung");
        assertThat(file).doesNotExist();

        Result decompress = run("-d", dir.resolve("data.bin.adc").toString());
        assertThat(decompress.exit).as(decompress.err).isZero();
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
    }

    @Test
    void itSaysItsVersionAndReportsAUsersErrorInOneLine() throws Exception {
        Result version = run("-V");
        assertThat(version.exit).isZero();
        assertThat(version.out.trim()).matches("adaptive-compress \\d+\\.\\d+\\.\\d+.*");

        Result missing = run(dir.resolve("missing").toString());
        assertThat(missing.exit).isEqualTo(1);
        assertThat(missing.err).startsWith("adaptive-compress: ").contains("no such file").hasLineCount(1);
    }

    private static final class Result {
        final int exit;
        final String out;
        final String err;

        Result(int exit, String out, String err) {
            this.exit = exit;
            this.out = out;
            this.err = err;
        }
    }

    private Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", launcher.toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
