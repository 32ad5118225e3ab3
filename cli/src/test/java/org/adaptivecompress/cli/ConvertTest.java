package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.adaptivecompress.testing.DataKind;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tukaani.xz.XZInputStream;

class ConvertTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"gz", "xz", "zst", "lz4"})
    void roundTripsAdcThroughEachStandardFormat(String extension) throws IOException {
        byte[] data = DataKind.MIXED.generate(1 << 20);
        Path plain = Files.write(dir.resolve("data"), data);
        Path adc = dir.resolve("data.adc");
        Path standard = dir.resolve("data." + extension);
        Path back = dir.resolve("back.adc");
        Path restored = dir.resolve("restored");

        assertThat(Cli.run("compress", plain.toString()).exit()).isZero();
        assertThat(Cli.run("convert", adc.toString(), standard.toString()).exit()).isZero();
        assertThat(Cli.run("convert", standard.toString(), back.toString()).exit()).isZero();
        Cli.Run last = Cli.run("convert", back.toString(), restored.toString());

        assertThat(last.exit()).as(last.err()).isZero();
        assertThat(Files.readAllBytes(restored)).isEqualTo(data);
        assertThat(Files.size(standard)).isLessThan(data.length);
    }

    @Test
    void writesFilesThatOtherReadersRead() throws IOException {
        byte[] data = DataKind.TEXT.generate(256 << 10);
        Path adc = dir.resolve("text.adc");
        Files.write(dir.resolve("text"), data);
        assertThat(Cli.run("compress", dir.resolve("text").toString()).exit()).isZero();

        for (String extension : new String[] {"gz", "xz", "zst", "lz4"}) {
            Path out = dir.resolve("text." + extension);
            assertThat(Cli.run("convert", adc.toString(), out.toString()).exit()).isZero();
            try (InputStream file = Files.newInputStream(out); InputStream in = switch (extension) {
                case "gz" -> new GZIPInputStream(file);
                case "xz" -> new XZInputStream(file);
                case "lz4" -> new FramedLZ4CompressorInputStream(file, true);
                default -> new ZstdInputStream(file);
            }) {
                assertThat(in.readAllBytes()).as(extension).isEqualTo(data);
            }
        }
    }

    @Test
    void compressAndDecompressSpeakStandardFormatsWithFormatOption() throws IOException {
        byte[] data = DataKind.JSON_EVENTS.generate(300_000);

        Cli.Run gz = Cli.run(data, "compress", "--format", "gz");
        assertThat(gz.exit()).isZero();
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.stdout()))) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
        Cli.Run back = Cli.run(gz.stdout(), "decompress", "--format", "gz");
        assertThat(back.stdout()).isEqualTo(data);
    }

    @Test
    void convertsStdinToStdoutWithExplicitFormats() {
        byte[] data = DataKind.LOG_LINES.generate(200_000);

        Cli.Run lz4 = Cli.run(data, "convert", "--to", "lz4", "-", "-");
        Cli.Run adc = Cli.run(lz4.stdout(), "convert", "--from", "lz4", "--to", "adc", "-", "-");
        Cli.Run plain = Cli.run(adc.stdout(), "decompress");

        assertThat(lz4.exit() + adc.exit() + plain.exit()).isZero();
        assertThat(plain.stdout()).isEqualTo(data);
    }
}
