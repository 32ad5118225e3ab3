package org.adaptivecompress.examples.netty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.examples.ExampleData;
import org.adaptivecompress.examples.WorkDirectory;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;

/**
 * Starts a {@link NettyFileServer} and a {@link NettyFileClient} on loopback, sends one file
 * through the adaptive handlers and prints the bytes, the time and the rungs the encoder chose.
 *
 * <p>Arguments (all optional): a file to send (default: 32 MiB of the corpus's text, or of
 * generated text, written to a temporary file), {@code --rate 20mbit} to throttle the client's
 * link (default: unthrottled loopback) and {@code --size-mb N} for the generated file.
 */
public final class NettyFileTransferExample {

    private NettyFileTransferExample() {}

    /** Runs the example; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        Path file = null;
        String rate = null;
        int sizeMb = 32;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rate" -> rate = value(args, ++i);
                case "--size-mb" -> sizeMb = Integer.parseInt(value(args, ++i));
                default -> file = Path.of(args[i]);
            }
        }
        try (WorkDirectory work = WorkDirectory.create("netty-file-transfer-")) {
            if (file == null) {
                file = work.path().resolve("sample.txt");
                Files.write(file, ExampleData.text(sizeMb << 20));
            }
            Path received = Files.createDirectories(work.path().resolve("received"));
            long bytesPerSecond = rate == null ? 0 : RateLimitedOutputStream.parseRate(rate);
            print(transfer(file, received, bytesPerSecond), rate);
        }
    }

    /** Sends {@code file} from a client to a server on 127.0.0.1 that writes it into {@code receivedDirectory}. */
    static FileTransfer transfer(Path file, Path receivedDirectory, long bytesPerSecond) throws Exception {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.defaults();
        try (NettyFileServer server = NettyFileServer.start("127.0.0.1", 0, receivedDirectory, options);
                NettyFileClient client = new NettyFileClient(options, bytesPerSecond)) {
            return client.send(file, "127.0.0.1", server.port());
        }
    }

    private static void print(FileTransfer t, String rate) {
        CompressionStatistics s = t.statistics();
        double seconds = t.nanos() / 1e9;
        System.out.printf(Locale.ROOT, "sent %,d bytes over %s in %.2f s (%.1f MB/s of file data)%n", t.bytes(),
                rate != null ? "loopback throttled to " + rate + "/s" : "unthrottled loopback", seconds,
                t.bytes() / 1e6 / seconds);
        System.out.printf(Locale.ROOT, "on the wire: %,d bytes (ratio %.2f)%n", s.totalBytesOut(),
                s.totalBytesIn() / (double) Math.max(1, s.totalBytesOut()));
        System.out.printf(Locale.ROOT, "encoder blocks per rung: %s (%d rung changes)%n", s.blocksByRung(),
                s.rungChanges());
        System.out.printf(Locale.ROOT, "why: %s; link last estimated at %s; compression used %.2f cores%n",
                s.decisionsByReason().entrySet().stream()
                        .map(e -> e.getKey().name().toLowerCase(Locale.ROOT) + "=" + e.getValue())
                        .collect(Collectors.joining(" ")),
                Double.isNaN(s.linkBytesPerSecond()) ? "none"
                        : String.format(Locale.ROOT, "%.1f MB/s", s.linkBytesPerSecond() / 1e6),
                s.compressionCores());
        System.out.println("SHA-256 (client and server agree): " + t.sha256Hex());
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
