package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.internal.format.BudgetFrame;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendReceiveTest {

    @TempDir
    Path dir;

    private final ExecutorService receiver = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopReceiver() {
        receiver.shutdownNow();
    }

    @Test
    void sendsAFileOverASlowLinkAndClimbsAboveRaw() throws Exception {
        byte[] data = DataKind.JSON_EVENTS.generate(4 << 20);
        Path file = Files.write(dir.resolve("events.json"), data);
        Path received = Files.writeString(dir.resolve("received.json"), "an older file, replaced with -f");
        int port = freePort();
        Cli.Watching receiverErr = new Cli.Watching("listening on");

        Future<Cli.Run> receive = receiver.submit(() -> Cli.run(new byte[0], receiverErr, "receive", "--port",
                String.valueOf(port), "--output", received.toString(), "-f", "--timeout", "60"));
        assertThat(receiverErr.seen.await(30, TimeUnit.SECONDS)).as("receiver listening").isTrue();
        assertThat(receiverErr.toString()).isEqualTo("listening on 127.0.0.1:" + port + "\n");

        Cli.Run send = Cli.run("send", "--rate", "40mbit", file.toString(), "127.0.0.1:" + port);
        Cli.Run receiveRun = receive.get(60, TimeUnit.SECONDS);

        assertThat(send.exit()).as(send.err()).isZero();
        assertThat(receiveRun.exit()).as(receiveRun.err()).isZero();
        assertThat(Files.readAllBytes(received)).isEqualTo(data);
        // Behind a 40 Mbit/s link the FIFO fills, so AdOC's rule climbs past raw and lz4.
        assertThat(send.out()).startsWith("sent " + file + " to 127.0.0.1:" + port + ": 4,194,304 bytes as ")
                .containsPattern("blocks per rung .*zstd:");
        assertThat(receiveRun.out()).startsWith("received 4,194,304 bytes (").contains("=> " + received);
    }

    @Test
    void receivesToStdout() throws Exception {
        byte[] data = DataKind.LOG_LINES.generate(1 << 20);
        Path file = Files.write(dir.resolve("log"), data);
        int port = freePort();
        Cli.Watching receiverErr = new Cli.Watching("listening on");

        Future<Cli.Run> receive = receiver.submit(() -> Cli.run(new byte[0], receiverErr, "receive", "-p",
                String.valueOf(port), "-o", "-", "--timeout", "60"));
        assertThat(receiverErr.seen.await(30, TimeUnit.SECONDS)).isTrue();
        Cli.Run send = Cli.run("send", "--objective", "cost:egress=0.09,cpu=0.00004,deadline=60s", file.toString(),
                "localhost:" + port);

        assertThat(send.exit()).as(send.err()).isZero();
        assertThat(send.out()).containsPattern("compression used \\d+\\.\\d\\d cores, estimated cost \\d");
        Cli.Run receiveRun = receive.get(60, TimeUnit.SECONDS);
        assertThat(receiveRun.stdout()).isEqualTo(data);
        assertThat(receiveRun.err()).contains("received 1,048,576 bytes");
    }

    @Test
    void failsInOneLineWhenNobodyListens() throws IOException {
        Path file = Files.write(dir.resolve("data"), new byte[1000]);
        int port = freePort();

        Cli.Run send = Cli.run("send", file.toString(), "127.0.0.1:" + port);

        assertThat(send.exit()).isEqualTo(1);
        assertThat(send.err()).startsWith("adaptive-compress: cannot connect to 127.0.0.1:" + port)
                .contains("receive --port " + port).doesNotContain("?:").hasLineCount(1);
    }

    @Test
    void receiverRejectsAStreamThatIsNotAdcAndDeletesItsOutput() throws Exception {
        Path received = dir.resolve("received");
        int port = freePort();
        Cli.Watching receiverErr = new Cli.Watching("listening on");
        Future<Cli.Run> receive = receiver.submit(() -> Cli.run(new byte[0], receiverErr, "receive", "--port",
                String.valueOf(port), "--output", received.toString(), "--timeout", "60"));
        assertThat(receiverErr.seen.await(30, TimeUnit.SECONDS)).isTrue();

        try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            assertThat(BudgetFrame.read(socket.getInputStream())).isEqualTo(ReceiverBudget.defaults()
                    .withMaxBlockLength(64 << 20));
            assertThat(socket.getInputStream().read()).as("no acknowledgement").isEqualTo(-1);
        }
        Cli.Run run = receive.get(60, TimeUnit.SECONDS);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("adaptive-compress: ").contains("not an adaptive-compress stream")
                .doesNotContain("Exception");
        assertThat(received).doesNotExist();
    }

    @Test
    void theSenderStaysInsideWhatTheReceiverAccepts() throws Exception {
        byte[] data = DataKind.JSON_EVENTS.generate(2 << 20);
        Path file = Files.write(dir.resolve("events.json"), data);
        Path received = dir.resolve("received.json");
        int port = freePort();
        Cli.Watching receiverErr = new Cli.Watching("listening on");
        Future<Cli.Run> receive = receiver.submit(() -> Cli.run(new byte[0], receiverErr, "receive", "--port",
                String.valueOf(port), "--output", received.toString(), "--accept", "lz4,zstd:1,window=0",
                "--timeout", "60"));
        assertThat(receiverErr.seen.await(30, TimeUnit.SECONDS)).isTrue();

        // Pinned to the top rung, xz:6 with histories: the receiver takes neither.
        Cli.Run send = Cli.run("send", "--controller", "fixed:6", file.toString(), "127.0.0.1:" + port);
        Cli.Run receiveRun = receive.get(60, TimeUnit.SECONDS);

        assertThat(send.exit()).as(send.err()).isZero();
        assertThat(receiveRun.exit()).as(receiveRun.err()).isZero();
        assertThat(Files.readAllBytes(received)).isEqualTo(data);
        assertThat(send.out()).containsPattern("blocks per rung zstd:1=16;")
                .contains("receiver accepts raw,lz4,zstd:1,window=0,block=4m");
    }

    @Test
    void aPeerThatSendsNoBudgetFailsTheSendInOneLine() throws Exception {
        Path file = Files.write(dir.resolve("data"), new byte[1000]);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Future<?> peer = receiver.submit(() -> {
                try (java.net.Socket s = server.accept()) {
                    s.getOutputStream().write("HTTP/1.0 400 Bad Request\r\n\r\n".getBytes(
                            java.nio.charset.StandardCharsets.US_ASCII));
                }
                return null;
            });
            Cli.Run send = Cli.run("send", file.toString(), "127.0.0.1:" + server.getLocalPort());
            peer.get(30, TimeUnit.SECONDS);

            assertThat(send.exit()).isEqualTo(1);
            assertThat(send.err()).contains("did not answer with a receiver budget").contains("receive")
                    .doesNotContain("Exception").hasLineCount(1);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
