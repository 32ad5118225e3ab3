package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Without a command the tool takes zstd's options and means by them what zstd does. */
class ZstdConventionsTest {

    private static final byte[] DATA = DataKind.TEXT.generate(1 << 20);

    @TempDir
    Path dir;

    @AfterEach
    void forgetTerminals() {
        System.clearProperty(Terminal.STDIN_PROPERTY);
        System.clearProperty(Terminal.STDOUT_PROPERTY);
    }

    @Test
    void compressesEachFileBesideItKeepingItAndDecompressesWithD() throws IOException {
        Path file = write("a.txt");

        assertSucceeded(Cli.run(file.toString()));
        assertThat(file).as("kept by default, as -k says").exists();
        assertThat(dir.resolve("a.txt.adc")).exists();

        Files.delete(file);
        assertSucceeded(Cli.run("-d", dir.resolve("a.txt.adc").toString()));
        assertThat(Files.readAllBytes(file)).isEqualTo(DATA);
    }

    @Test
    void rmDeletesEachInputOnceItsOutputIsComplete() throws IOException {
        Path file = write("a.txt");
        Path compressed = dir.resolve("a.txt.adc");

        assertSucceeded(Cli.run("--rm", file.toString()));
        assertThat(file).doesNotExist();
        assertSucceeded(Cli.run("-d", "--rm", compressed.toString()));
        assertThat(compressed).doesNotExist();
        assertThat(Files.readAllBytes(file)).isEqualTo(DATA);
    }

    @Test
    void rmKeepsTheInputWhenTheOutputFails() throws IOException {
        Path file = write("a.txt");
        Files.write(dir.resolve("a.txt.adc"), new byte[] {1});

        Cli.Run run = Cli.run("--rm", file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("already exists; use -f");
        assertThat(file).exists();
    }

    @Test
    void cWritesToStdoutAndDcReadsItBack() throws IOException {
        Path file = write("a.txt");

        Cli.Run compressed = Cli.run("-c", file.toString());
        assertSucceeded(compressed);
        assertThat(decode(compressed.stdout())).isEqualTo(DATA);
        assertThat(dir.resolve("a.txt.adc")).doesNotExist();

        Cli.Run plain = Cli.run(compressed.stdout(), "-dc");
        assertSucceeded(plain);
        assertThat(plain.stdout()).isEqualTo(DATA);
    }

    @Test
    void withoutFilesItCompressesStdinToStdout() throws IOException {
        Cli.Run compressed = Cli.run(DATA);
        assertSucceeded(compressed);
        assertThat(decode(compressed.stdout())).isEqualTo(DATA);

        Cli.Run plain = Cli.run(compressed.stdout(), "-d", "-");
        assertThat(plain.stdout()).isEqualTo(DATA);
    }

    @Test
    void oNamesTheOutputAndFReplacesIt() throws IOException {
        Path file = write("a.txt");
        Path target = dir.resolve("elsewhere.adc");

        assertSucceeded(Cli.run("-o", target.toString(), file.toString()));
        Cli.Run again = Cli.run("-o", target.toString(), file.toString());
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("already exists; use -f to overwrite");
        assertSucceeded(Cli.run("-f", "-o", target.toString(), file.toString()));
        assertThat(decode(Files.readAllBytes(target))).isEqualTo(DATA);
    }

    @ParameterizedTest(name = "-{0} -> {1}")
    @CsvSource({"1, zstd:1", "2, zstd:1", "3, zstd:3", "8, zstd:3", "9, zstd:9", "15, zstd:15", "18, zstd:15",
            "19, xz:6", "22, xz:6"})
    void levelsPickTheLaddersZstdRungBelowOrItsTopFrom19(int level, String rung) throws IOException {
        Path file = write("a.txt");

        Cli.Run run = Cli.run("-v", "-" + level, "-c", file.toString());

        assertSucceeded(run);
        assertThat(run.err()).contains("blocks per rung " + rung + "=8");
        assertThat(decode(run.stdout())).isEqualTo(DATA);
    }

    @Test
    void levelsBelowEveryZstdRungTakeTheRungUnderIt() {
        assertThat(CompressionMixin.rungForLevel(org.adaptivecompress.codec.Ladder.parse("raw,lz4,zstd:3,zstd:9"), 1))
                .isEqualTo(1);
    }

    @Test
    void adaptAndThreadsRoundTrip() throws IOException {
        Path file = write("a.txt");

        for (String[] options : new String[][] {{"--adapt"}, {"-T2"}, {"-T0", "-9"}, {"--threads", "2", "--adapt"}}) {
            String[] args = new String[options.length + 2];
            System.arraycopy(options, 0, args, 0, options.length);
            args[options.length] = "-c";
            args[options.length + 1] = file.toString();
            Cli.Run run = Cli.run(args);
            assertSucceeded(run);
            assertThat(decode(run.stdout())).as(String.join(" ", options)).isEqualTo(DATA);
        }
    }

    @Test
    void subcommandsTakeTheSameLevelThreadsAndAdaptOptions() throws IOException {
        Path file = write("a.txt");

        Cli.Run run = Cli.run("compress", "-v", "-19", "-T2", "-c", file.toString());

        assertSucceeded(run);
        assertThat(run.err()).contains("blocks per rung xz:6=8");
    }

    @Test
    void quietPrintsNothingEvenWithV() throws IOException {
        Path file = write("a.txt");

        Cli.Run run = Cli.run("-q", "-v", "-c", file.toString());

        assertSucceeded(run);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void refusesToWriteCompressedBytesToATerminalUnlessForced() throws IOException {
        Path file = write("a.txt");
        System.setProperty(Terminal.STDOUT_PROPERTY, "true");

        Cli.Run refused = Cli.run("-c", file.toString());
        Cli.Run forced = Cli.run("-cf", file.toString());
        Cli.Run plain = Cli.run(Cli.run("-c", "-f", file.toString()).stdout(), "-d");

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("stdout is a terminal").hasLineCount(1);
        assertThat(refused.stdout()).isEmpty();
        assertSucceeded(forced);
        assertSucceeded(plain);
        assertThat(plain.stdout()).as("decompressed bytes may go to a terminal").isEqualTo(DATA);
    }

    @Test
    void withoutFilesRefusesToReadATerminal() {
        System.setProperty(Terminal.STDIN_PROPERTY, "true");

        Cli.Run run = Cli.run();

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("missing command or FILE, and stdin is a terminal").hasLineCount(1);
    }

    private Path write(String name) throws IOException {
        return Files.write(dir.resolve(name), DATA);
    }

    private static void assertSucceeded(Cli.Run run) {
        assertThat(run.exit()).as(run.err()).isZero();
    }

    private static byte[] decode(byte[] compressed) throws IOException {
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(compressed))) {
            return in.readAllBytes();
        }
    }
}
