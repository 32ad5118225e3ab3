package org.adaptivecompress.examples.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.examples.ExampleData;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NettyFileTransferExampleTest {

    @TempDir
    Path dir;

    @Test
    void theFileArrivesBitExactAndTheEncoderCompressedIt() throws Exception {
        Path file = dir.resolve("text.txt");
        Files.write(file, ExampleData.text(3 << 20));
        Path received = Files.createDirectories(dir.resolve("received"));

        FileTransfer t = NettyFileTransferExample.transfer(file, received, 0);

        assertThat(Files.mismatch(file, received.resolve("text.txt"))).isEqualTo(-1L);
        assertThat(t.bytes()).isEqualTo(3 << 20);
        // the file and its header: size (8), name length (4), "text.txt" (8)
        assertThat(t.statistics().totalBytesIn()).isEqualTo((3 << 20) + 20);
    }

    @Test
    void onAThrottledLinkTheEncoderClimbsAboveLz4() throws Exception {
        Path file = dir.resolve("text.txt");
        Files.write(file, ExampleData.text(2 << 20));
        Path received = Files.createDirectories(dir.resolve("received"));

        FileTransfer t = NettyFileTransferExample.transfer(file, received, RateLimitedOutputStream.parseRate("16mbit"));

        assertThat(Files.mismatch(file, received.resolve("text.txt"))).isEqualTo(-1L);
        assertThat(t.statistics().highestRungWithAtLeast(2)).isGreaterThan(1);
        assertThat(t.statistics().totalBytesOut()).isLessThan(t.bytes() * 3 / 4);
    }

    @Test
    void emptyAndIncompressibleFilesArriveIntact() throws Exception {
        Path empty = Files.write(dir.resolve("empty.bin"), new byte[0]);
        Path random = Files.write(dir.resolve("random.bin"), DataKind.RANDOM.generate(1_000_003));
        Path received = Files.createDirectories(dir.resolve("received"));

        NettyFileTransferExample.transfer(empty, received, 0);
        FileTransfer t = NettyFileTransferExample.transfer(random, received, 0);

        assertThat(received.resolve("empty.bin")).isEmptyFile();
        assertThat(Files.mismatch(random, received.resolve("random.bin"))).isEqualTo(-1L);
        assertThat(t.sha256Hex()).hasSize(64);
    }

    @Test
    void aServerThatCannotWriteTheFileFailsTheSendWithoutAPartialFile() throws Exception {
        Path file = Files.write(dir.resolve("data.txt"), ExampleData.text(1 << 20));
        Path missing = dir.resolve("no-such-directory");
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.defaults();

        try (NettyFileServer server = NettyFileServer.start("127.0.0.1", 0, missing, options);
                NettyFileClient client = new NettyFileClient(options, 0)) {
            assertThatThrownBy(() -> client.send(file, "127.0.0.1", server.port())).isInstanceOf(IOException.class);
        }
        assertThat(missing).doesNotExist();
    }
}
