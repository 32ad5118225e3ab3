package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import org.adaptivecompress.benchmarks.link.agent.LinkInput;

/**
 * How the sizes of a sender's writes alone change what loopback TCP delivers: the same bytes
 * sent in writes of a repeating pattern of sizes, with Nagle's algorithm off as the link
 * benchmark's sockets have it, to a receiver that reads 64 KiB at a time and checks every
 * byte, as the link benchmark's does. No framing and no codec: what a pattern costs is the
 * kernel's.
 *
 * <p>Run as {@code java -jar benchmarks.jar write-patterns [--rounds N] [--mib 1024]
 * [--patterns 65536,20+65536+65536,...]}. Each round sends the input once per pattern, in
 * turn; the first round warms up and is not counted. The default patterns are plain raw's
 * writes (64 KiB), a block frame's header written apart before its payload, a header joined
 * to 64 KiB, a whole block in one write with and without a header, and half-size writes.
 */
public final class WritePatterns {

    /** The patterns run when none are named: see the class comment. */
    public static final String DEFAULT_PATTERNS = "65536,20+65536+65536,65556,131072,131092,32768";

    private static final int RECEIVE_BUFFER = 64 << 10;
    private static final int SOURCE_LENGTH = 16 << 20;

    private WritePatterns() {}

    /** One pattern's transfers, in seconds, in the order they ran. */
    public record Result(String pattern, List<Double> seconds) {

        /** The median transfer time. */
        public double median() {
            double[] sorted = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }
    }

    /** Runs from the command line after the {@code write-patterns} word; returns the exit code. */
    public static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
        int rounds = 11;
        long size = 1L << 30;
        String patterns = DEFAULT_PATTERNS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(value(args, ++i));
                case "--mib" -> size = (long) Integer.parseInt(value(args, ++i)) << 20;
                case "--patterns" -> patterns = value(args, ++i);
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "'; usage: write-patterns [--rounds N] [--mib 1024] [--patterns 65536,20+65536+65536,...]");
            }
        }
        List<Result> results = measure(parse(patterns), size, rounds);
        double first = results.get(0).median();
        out.printf(Locale.ROOT, "%d MiB over loopback TCP per transfer, %d counted rounds%n", size >> 20,
                Math.max(1, rounds - 1));
        for (Result r : results) {
            out.printf(Locale.ROOT, "%-24s median %.3f s  %.2fx the first pattern's time  %s%n", r.pattern(), r.median(),
                    r.median() / first, r.seconds().stream().map(s -> String.format(Locale.ROOT, "%.3f", s)).toList());
        }
        return 0;
    }

    /**
     * Sends {@code size} bytes once per pattern per round, patterns alternating; the first
     * round is not counted unless it is the only one.
     *
     * @param patterns each a cycle of write sizes
     */
    public static List<Result> measure(List<int[]> patterns, long size, int rounds)
            throws IOException, InterruptedException {
        byte[] source = new byte[SOURCE_LENGTH];
        new SplittableRandom(42).nextBytes(source);
        List<List<Double>> seconds = new ArrayList<>();
        patterns.forEach(p -> seconds.add(new ArrayList<>()));
        for (int round = 0; round < rounds; round++) {
            for (int p = 0; p < patterns.size(); p++) {
                double s = transfer(source, size, patterns.get(p));
                if (round > 0 || rounds == 1) {
                    seconds.get(p).add(s);
                }
            }
        }
        List<Result> results = new ArrayList<>();
        for (int p = 0; p < patterns.size(); p++) {
            results.add(new Result(name(patterns.get(p)), seconds.get(p)));
        }
        return results;
    }

    /** Parses {@code 65536,20+65536+65536}: patterns apart by commas, a pattern's writes by plus signs. */
    public static List<int[]> parse(String patterns) {
        List<int[]> parsed = new ArrayList<>();
        for (String pattern : patterns.split(",")) {
            int[] sizes = Arrays.stream(pattern.split("\\+")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
            if (Arrays.stream(sizes).anyMatch(s -> s < 1 || s > SOURCE_LENGTH / 2)) {
                throw new IllegalArgumentException("write sizes must be in [1, " + SOURCE_LENGTH / 2 + "]: " + pattern);
            }
            parsed.add(sizes);
        }
        return parsed;
    }

    private static String name(int[] pattern) {
        return String.join("+", Arrays.stream(pattern).mapToObj(Integer::toString).toList());
    }

    private static double transfer(byte[] source, long size, int[] pattern) throws IOException, InterruptedException {
        LinkInput input = new LinkInput(source, size);
        try (LoopbackConnection connection = LoopbackConnection.open("write-patterns-receiver")) {
            long start = System.nanoTime();
            Future<Long> received = connection.receive(() -> receive(input, connection.in()));
            send(input, pattern, connection.out());
            long end = LoopbackConnection.await(received);
            return (end - start) / 1e9;
        }
    }

    private static void send(LinkInput input, int[] pattern, OutputStream out) throws IOException {
        byte[] source = input.block();
        try (out) {
            long sent = 0;
            for (int i = 0; sent < input.length(); i = (i + 1) % pattern.length) {
                int offset = (int) (sent % source.length);
                int n = (int) Math.min(Math.min(pattern[i], source.length - offset), input.length() - sent);
                out.write(source, offset, n);
                sent += n;
            }
        }
    }

    /** Reads and checks everything; returns the time of the last byte. */
    private static long receive(LinkInput input, InputStream in) throws IOException {
        byte[] buffer = new byte[RECEIVE_BUFFER];
        long position = 0;
        try (in) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                if (input.mismatch(position, buffer, n) >= 0) {
                    throw new IOException("bytes from " + position + " on differ from those sent");
                }
                position += n;
            }
        }
        if (position != input.length()) {
            throw new IOException("received " + position + " of " + input.length() + " bytes");
        }
        return System.nanoTime();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("option " + args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
