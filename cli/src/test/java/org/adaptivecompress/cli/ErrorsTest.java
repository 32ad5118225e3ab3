package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad arguments and bad input end in one line on stderr and a non-zero exit, never a stack trace. */
class ErrorsTest {

    @TempDir
    static Path dir;

    static Stream<Arguments> failures() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.adc"), "plain text, not a compressed stream\n");
        Path empty = Files.write(dir.resolve("empty.adc"), new byte[0]);
        Path plain = Files.writeString(dir.resolve("plain.txt"), "hello\n");
        Path gzNotGz = Files.writeString(dir.resolve("fake.gz"), "not gzip at all\n");
        String missing = dir.resolve("missing").toString();
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of(1, "not an adaptive-compress stream", List.of("decompress", text.toString())));
        cases.add(Arguments.of(1, "input is empty", List.of("decompress", "-c", empty.toString())));
        cases.add(Arguments.of(1, missing + ": no such file or directory", List.of("compress", missing)));
        cases.add(Arguments.of(1, missing + ": no such file or directory", List.of("inspect", missing)));
        cases.add(Arguments.of(1, "not an adaptive-compress stream", List.of("inspect", text.toString())));
        cases.add(Arguments.of(1, "fake.gz (gz)", List.of("convert", gzNotGz.toString(), dir.resolve("o").toString())));
        cases.add(Arguments.of(1, plain + ": is the input file too",
                List.of("convert", "-f", plain.toString(), plain.toString())));
        cases.add(Arguments.of(1, plain + ": already exists; use -f to overwrite",
                List.of("receive", "--port", "0", "--output", plain.toString())));
        cases.add(Arguments.of(2, "Invalid value for option '--rate': cannot read link rate 'fast'",
                List.of("send", "--rate", "fast", plain.toString(), "127.0.0.1:9")));
        cases.add(Arguments.of(2, "is not HOST:PORT", List.of("send", plain.toString(), "nowhere")));
        cases.add(Arguments.of(2, "unknown suffix", List.of("decompress", plain.toString())));
        cases.add(Arguments.of(2, "Unknown option: '--bogus'", List.of("compress", "--bogus")));
        cases.add(Arguments.of(2, "unknown controller", List.of("compress", "--controller", "smart", "-c")));
        cases.add(Arguments.of(2, "Invalid value for option '--block-size'", List.of("compress", "--block-size", "1x")));
        cases.add(Arguments.of(2, "Missing required option", List.of("receive", "--port", "0")));
        cases.add(Arguments.of(2, "a deadline needs the input's size",
                List.of("compress", "--objective", "cost:egress=1,deadline=10s", "-c")));
        cases.add(Arguments.of(2, "unknown codec 'brotli' in receiver budget",
                List.of("receive", "--port", "0", "--accept", "brotli", "-o", "-")));
        cases.add(Arguments.of(2, "-k keeps the input files and --rm deletes them", List.of("-k", "--rm", plain.toString())));
        cases.add(Arguments.of(2, "levels run from -1 to -22, was -23", List.of("-23", "-c", plain.toString())));
        cases.add(Arguments.of(2, "--controller, --adapt and -# each choose the controller",
                List.of("--adapt", "-3", "-c", plain.toString())));
        cases.add(Arguments.of(2, "Invalid value for option '--threads': threads must be from 0",
                List.of("-T300", "-c", plain.toString())));
        cases.add(Arguments.of(2, "-o takes one input",
                List.of("compress", "-o", dir.resolve("x").toString(), plain.toString(), text.toString())));
        cases.add(Arguments.of(2, "needs a compressed format", List.of("compress", "--format", "plain", "-c")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("failures")
    void reportsOneLineAndExitsNonZero(int exit, String message, List<String> args) {
        Cli.Run run = Cli.run("stdin".getBytes(StandardCharsets.UTF_8), args.toArray(String[]::new));

        assertThat(run.exit()).isEqualTo(exit);
        assertThat(run.err()).startsWith("adaptive-compress: ").contains(message).hasLineCount(1)
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(run.stdout()).isEmpty();
    }
}
