package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectTest {

    @TempDir
    Path dir;

    private Path adc;

    /** A stream with blocks of three rungs, one per concatenated stream. */
    @BeforeEach
    void writeStreamWithThreeRungs() throws IOException {
        byte[] data = DataKind.TEXT.generate(300_000);
        Path plain = Files.write(dir.resolve("text"), data);
        ByteArrayOutputStream cat = new ByteArrayOutputStream();
        for (String rung : new String[] {"fixed:0", "fixed:1", "fixed:3"}) {
            cat.writeBytes(Cli.run("compress", "-c", "--controller", rung, plain.toString()).stdout());
        }
        adc = Files.write(dir.resolve("text.adc"), cat.toByteArray());
    }

    @Test
    void listsEveryBlockAndSumsUpPerCodec() {
        Cli.Run run = Cli.run("inspect", adc.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("stream 1 at offset 0", "stream 3 at offset", "summary: 3 streams")
                // A raw block is a header short of the block size, so that its frame is the block size.
                .containsPattern("\\n +0 +12 raw +131,044 +131,044 +1\\.00x\\n")
                .containsPattern("\\n  raw +3 +300,000 +300,000 +1\\.00x\\n")
                .containsPattern("\\n  lz4 +3 +300,000 ")
                .containsPattern("\\n  zstd:3 +3 +300,000 ")
                .containsPattern("\\n  total +9 +900,000 ");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void jsonHoldsTheSameStreamsBlocksAndSummaryForScripts() {
        Cli.Run run = Cli.run("inspect", "--json", adc.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        String json = run.out().trim();
        assertThat(json).startsWith("{\"streams\":[{\"offset\":0,\"blocks\":[{\"index\":0,\"offset\":12,\"rung\":\"raw\","
                + "\"in\":131044,\"stored\":131044}")
                .contains("\"summary\":{\"streams\":3,\"verified\":false,\"rungs\":[{\"rung\":\"raw\",\"blocks\":3,"
                        + "\"in\":300000,\"stored\":300000}")
                .endsWith("\"total\":{\"blocks\":9,\"in\":900000," + json.substring(json.lastIndexOf("\"stored\"")))
                .hasLineCount(1);
        assertThat(json.split("\"index\":", -1)).as("one object a block").hasSize(10);
        assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
        assertThat(json.chars().filter(c -> c == '[').count()).isEqualTo(json.chars().filter(c -> c == ']').count());

        Cli.Run summary = Cli.run("inspect", "--json", "--summary", adc.toString());
        assertThat(summary.out()).startsWith("{\"streams\":[{\"offset\":0},{\"offset\":").doesNotContain("\"index\"");
    }

    @Test
    void summaryOnlyAndVerifyDecodeEveryBlock() {
        Cli.Run run = Cli.run("inspect", "--summary", "--verify", adc.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("summary: 3 streams, every block verified\n").doesNotContain("stream 1 at");
    }

    @Test
    void verifyFindsADamagedPayloadThatHeadersAloneDoNot() throws IOException {
        byte[] bytes = Files.readAllBytes(adc);
        int payload = FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + 100; // inside the first raw block
        bytes[payload] ^= 0x5A;
        Files.write(adc, bytes);

        assertThat(Cli.run("inspect", adc.toString()).exit()).isZero();
        Cli.Run verify = Cli.run("inspect", "--verify", adc.toString());
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.err()).startsWith("adaptive-compress: " + adc + ": block at stream offset 12 decodes to bytes whose CRC32C")
                .hasLineCount(1);
    }

    @Test
    void findsAFrameLostWholeFromTheHeadersAlone() throws IOException {
        byte[] bytes = Files.readAllBytes(adc);
        // The first stream's second raw frame, cut out whole: every frame left is valid alone.
        Files.write(adc, Frames.without(bytes, 1));

        Cli.Run run = Cli.run("inspect", "-s", adc.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("adaptive-compress: " + adc + ": block at stream offset")
                .contains("a whole frame is missing, repeated or out of order").hasLineCount(1);
    }

    @Test
    void reportsATruncatedStream() throws IOException {
        byte[] bytes = Files.readAllBytes(adc);
        Files.write(adc, Arrays.copyOf(bytes, bytes.length - 25));

        Cli.Run run = Cli.run("inspect", "-s", adc.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("adaptive-compress: " + adc + ": stream ends").hasLineCount(1);
    }
}
