package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CompressDecompressTest {

    private static final int SIZE = 1 << 20;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = DataKind.class, names = {"TEXT", "JSON_EVENTS", "JPEG", "RANDOM", "MIXED"})
    void roundTripsFilesUnderTheirDefaultNames(DataKind kind) throws IOException {
        byte[] data = kind.generate(SIZE);
        Path file = write("data.bin", data);

        Cli.Run compress = Cli.run("compress", file.toString());
        assertThat(compress.exit()).as(compress.err()).isZero();
        Path compressed = dir.resolve("data.bin.adc");
        assertThat(compressed).exists();
        Files.delete(file);

        Cli.Run decompress = Cli.run("decompress", compressed.toString());
        assertThat(decompress.exit()).as(decompress.err()).isZero();
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
        assertThat(compress.err() + decompress.err()).as("nothing printed when not on a terminal").isEmpty();
        assertThat(compressed).as("the input is kept").exists();
    }

    @Test
    void compressesTextToAQuarterWithTheDefaultFixedRung() throws IOException {
        Path file = write("text", DataKind.TEXT.generate(SIZE));

        Cli.Run run = Cli.run("compress", "-v", file.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.err()).contains("=> " + file + ".adc").contains("blocks per rung zstd:3=8");
        assertThat(Files.size(dir.resolve("text.adc"))).isLessThan(SIZE / 2);
    }

    @Test
    void aFixedLevelKeepsHistoriesByDefaultWhichShrinkRepeatedTextAndStillDecompress() throws IOException {
        // The text corpus repeats every 1.2 MB: only a window across blocks sees the repetition.
        byte[] data = DataKind.TEXT.generate(3 << 20);
        Path file = write("text", data);

        Cli.Run alone = Cli.run("compress", "-c", "--no-history", file.toString());
        Cli.Run history = Cli.run("compress", "-c", file.toString());
        Cli.Run adapting = Cli.run("compress", "-c", "--adapt", file.toString());

        assertThat(history.exit()).as(history.err()).isZero();
        assertThat(history.stdout().length).isLessThan(alone.stdout().length / 2);
        assertThat(history.stdout()[5]).as("stream flags: histories").isEqualTo((byte) 1);
        assertThat(adapting.stdout()[5]).as("off for a controller that adapts").isZero();
        assertThat(Cli.run(history.stdout(), "decompress").stdout()).isEqualTo(data);
    }

    @Test
    void resetPointsComeEveryIntervalAndShowInInspect() throws IOException {
        byte[] data = DataKind.TEXT.generate(3 << 20);
        Path file = write("text", data);

        Cli.Run compress = Cli.run("compress", "-c", "--reset-interval", "1m", file.toString());
        assertThat(compress.exit()).as(compress.err()).isZero();
        Path compressed = write("text.adc", compress.stdout());
        Cli.Run inspect = Cli.run("inspect", compressed.toString());
        assertThat(inspect.out().split("reset point", -1)).hasSize(3);
        assertThat(Cli.run("compress", "-c", "--reset-interval", "100", file.toString()).err())
                .contains("resetInterval 100 is shorter than a block");
    }

    @Test
    void roundTripsThroughStdinAndStdout() {
        byte[] data = DataKind.JSON_EVENTS.generate(SIZE);

        Cli.Run compress = Cli.run(data, "compress");
        assertThat(compress.exit()).as(compress.err()).isZero();
        assertThat(compress.stdout().length).isLessThan(data.length / 2);

        Cli.Run decompress = Cli.run(compress.stdout(), "decompress", "-");
        assertThat(decompress.exit()).as(decompress.err()).isZero();
        assertThat(decompress.stdout()).isEqualTo(data);
    }

    @Test
    void writesToStdoutWithDashCAndToTheNamedFileWithDashO() throws IOException {
        byte[] data = DataKind.LOG_LINES.generate(SIZE);
        Path file = write("log", data);
        Path named = dir.resolve("named.adc");

        Cli.Run toStdout = Cli.run("compress", "-c", file.toString());
        Cli.Run toFile = Cli.run("compress", "-o", named.toString(), file.toString());

        assertThat(toFile.exit()).isZero();
        assertThat(dir.resolve("log.adc")).doesNotExist();
        // Each stream has its own random salt, so compare what they decode to.
        assertThat(Cli.run(toStdout.stdout(), "decompress").stdout()).isEqualTo(data);
        assertThat(Cli.run("decompress", "-c", named.toString()).stdout()).isEqualTo(data);
    }

    @Test
    void refusesToOverwriteWithoutForce() throws IOException {
        Path file = write("data", DataKind.TEXT.generate(4096));
        Path existing = write("data.adc", new byte[] {1, 2, 3});

        Cli.Run refused = Cli.run("compress", file.toString());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).isEqualTo("adaptive-compress: " + existing + ": already exists; use -f to overwrite\n");
        assertThat(Files.readAllBytes(existing)).containsExactly(1, 2, 3);

        Cli.Run forced = Cli.run("compress", "-f", file.toString());
        assertThat(forced.exit()).isZero();
        assertThat(Cli.run("decompress", "-c", existing.toString()).stdout()).isEqualTo(Files.readAllBytes(file));
    }

    @Test
    void honoursLadderControllerAndBlockSize() throws IOException {
        Path file = write("data", DataKind.TEXT.generate(SIZE));

        Cli.Run compress = Cli.run("compress", "--ladder", "raw,lz4,xz:1", "--controller", "fixed:1",
                "--block-size", "64k", file.toString());
        Cli.Run inspect = Cli.run("inspect", "--summary", dir.resolve("data.adc").toString());

        assertThat(compress.exit()).isZero();
        assertThat(inspect.out()).containsPattern("\\n  lz4 +16 +1,048,576 ").doesNotContain("xz:1").doesNotContain("raw ");
    }

    @Test
    void aFixedRungPastTheLadderIsABadArgumentNotTheTopRung() throws IOException {
        Path file = write("data", DataKind.TEXT.generate(1000));

        Cli.Run compress = Cli.run("compress", "--controller", "fixed:99", file.toString());

        assertThat(compress.exit()).isEqualTo(2);
        assertThat(compress.err()).startsWith("adaptive-compress: controller 'fixed:99' names rung 99")
                .doesNotContain("Exception");
        assertThat(dir.resolve("data.adc")).doesNotExist();
    }

    @Test
    void anObjectiveChoosesTheModelControllerAndIsRefusedWithAFixedRung() throws IOException {
        byte[] data = DataKind.TEXT.generate(SIZE);
        Path file = write("data", data);

        Cli.Run budget = Cli.run("compress", "--objective", "cpu-budget:0.5", file.toString());
        assertThat(budget.exit()).as(budget.err()).isZero();
        assertThat(Cli.run("decompress", "-c", dir.resolve("data.adc").toString()).stdout()).isEqualTo(data);

        Cli.Run fixed = Cli.run("compress", "-f", "--objective", "cost:egress=0.05", "--controller", "fixed:2",
                file.toString());
        assertThat(fixed.exit()).isEqualTo(2);
        assertThat(fixed.err()).contains("needs the model controller").doesNotContain("Exception");
        Cli.Run bad = Cli.run("compress", "-f", "--objective", "cheapest", file.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("objective 'cheapest'");
    }

    @Test
    void aLongestBlockShorterThanTheBlockSizeIsABadArgument() throws IOException {
        byte[] data = DataKind.TEXT.generate(SIZE);
        Path file = write("data", data);

        Cli.Run bad = Cli.run("compress", "--adapt", "--block-size", "256k", "--max-block-size", "128k", file.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("shorter than the block size").doesNotContain("Exception");

        Cli.Run good = Cli.run("compress", "--adapt", "--max-block-size", "2m", file.toString());
        assertThat(good.exit()).as(good.err()).isZero();
        assertThat(Cli.run("decompress", "-c", dir.resolve("data.adc").toString()).stdout()).isEqualTo(data);
    }

    @Test
    void decompressesLargeBlocksItWrote() throws IOException {
        byte[] data = DataKind.MIXED.generate(12 << 20);
        Path file = write("big", data);

        assertThat(Cli.run("compress", "--block-size", "8m", "--controller", "fixed:1", file.toString()).exit()).isZero();
        Cli.Run back = Cli.run("decompress", "-c", dir.resolve("big.adc").toString());

        assertThat(back.exit()).as(back.err()).isZero();
        assertThat(back.stdout()).isEqualTo(data);
    }

    private Path write(String name, byte[] data) throws IOException {
        return Files.write(dir.resolve(name), data);
    }
}
