package org.adaptivecompress.examples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.cli.CountingOutputStream;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;

/**
 * The project's main job: sends the same data over loopback TCP through an emulated slow link
 * and an emulated fast link, adaptive and raw, and prints per link the rungs chosen, the bytes on
 * the wire and the time from first byte written to last byte decoded and checked.
 *
 * <p>Arguments (all optional): {@code --slow 20mbit --fast 2gbit --size-mb 16}.
 */
public final class LinkDemo {

    private LinkDemo() {}

    /** Runs the demo; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String slow = "20mbit";
        String fast = "2gbit";
        int sizeMb = 16;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--slow" -> slow = args[i + 1];
                case "--fast" -> fast = args[i + 1];
                case "--size-mb" -> sizeMb = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        byte[] data = demoData(sizeMb << 20);
        System.out.printf(Locale.ROOT, "adaptive-compress link demo: %,d bytes of %s over loopback TCP%n",
                data.length, dataDescription());
        System.out.printf(Locale.ROOT, "links paced inside the sending JVM; for links shaped by the kernel, run the"
                + " link benchmark (docs/PERFORMANCE.md)%n%n");
        System.out.printf(Locale.ROOT, "%-14s %-11s %10s %14s %9s  %s%n", "link", "sender", "time", "bytes on wire",
                "ratio", "blocks per rung");
        for (String link : List.of(slow, fast)) {
            long rate = RateLimitedOutputStream.parseRate(link);
            for (String[] sender : SENDERS) {
                print(link, sender[0], transfer(data, rate, sender[1]));
            }
        }
    }

    /** Who sends: a label and the controller. */
    private static final String[][] SENDERS = {
        {"raw", "fixed:0"}, {"zstd:3", "fixed:3"}, {"xz:6", "fixed:6"}, {"adoc", "adoc"}, {"model", "model"}};

    private static void print(String link, String sender, Result r) {
        System.out.printf(Locale.ROOT, "%-14s %-11s %8.2f s %,14d %8.2fx  %s%n", link + "/s", sender, r.seconds,
                r.wireBytes, r.stats.totalBytesIn() / (double) Math.max(1, r.wireBytes), r.stats.blocksByRung());
    }

    record Result(double seconds, long wireBytes, CompressionStatistics stats) {}

    /** Sends {@code data} through an adaptive stream over a throttled loopback socket, and checks what arrives. */
    static Result transfer(byte[] data, long bytesPerSecond, String controller) throws Exception {
        ExecutorService receiver = Executors.newSingleThreadExecutor();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Future<byte[]> received = receiver.submit(() -> {
                try (Socket s = server.accept(); InputStream in = new AdaptiveInputStream(s.getInputStream())) {
                    return in.readAllBytes();
                }
            });
            long start = System.nanoTime();
            CountingOutputStream wire;
            AdaptiveOutputStream out;
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                wire = new CountingOutputStream(socket.getOutputStream(), true);
                out = AdaptiveOutputStream.builder().controller(controller)
                        .build(new RateLimitedOutputStream(wire, bytesPerSecond));
                for (int i = 0; i < data.length; i += 64 * 1024) {
                    out.write(data, i, Math.min(64 * 1024, data.length - i));
                }
                out.close();
                byte[] got = received.get();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (!java.util.Arrays.equals(got, data)) {
                    throw new IllegalStateException("the receiver decoded different bytes");
                }
                return new Result(seconds, wire.count(), out.statistics());
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("receiver failed", e.getCause());
        } finally {
            receiver.shutdownNow();
        }
    }

    private static Path corpusDirectory() {
        String dir = System.getProperty("adaptive.corpus.dir", "../shared/data/corpus");
        Path path = Paths.get(dir);
        return Files.isDirectory(path) ? path : null;
    }

    private static String dataDescription() {
        return corpusDirectory() != null ? "the reference corpus (text, HTML, URLs, protobuf, PDF, JPEG), repeated"
                : "generated JSON events (corpus not found)";
    }

    /** The reference corpus concatenated and repeated to {@code size}; generated JSON when it is absent or empty. */
    static byte[] demoData(int size) {
        Path dir = corpusDirectory();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        if (dir != null) {
            readCorpus(dir, all);
        }
        if (all.size() == 0) { // no corpus, or an empty one
            StringBuilder sb = new StringBuilder();
            for (int i = 0; sb.length() < 1 << 20; i++) {
                sb.append("{\"id\":").append(i).append(",\"event\":\"click\",\"user\":").append(i * 7919 % 100_000)
                        .append(",\"ts\":").append(1_700_000_000_000L + i * 37L).append("}\n");
            }
            all.writeBytes(sb.toString().getBytes());
        }
        byte[] source = all.toByteArray();
        byte[] out = new byte[size];
        for (int i = 0; i < size; i += source.length) {
            System.arraycopy(source, 0, out, i, Math.min(source.length, size - i));
        }
        return out;
    }

    private static void readCorpus(Path dir, ByteArrayOutputStream all) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> Files.isRegularFile(p)
                    && !p.getFileName().toString().matches(".*(README|COPYING).*")).sorted().toList()) {
                all.writeBytes(Files.readAllBytes(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
