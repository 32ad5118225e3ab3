package org.adaptivecompress.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * {@code sizes}: the bytes a fixed zstd rung writes, with blocks that decode alone and with
 * histories (a reset point every 8 MiB by default, as the Hadoop codec and the CLI write
 * files), against native streaming {@code zstd} at the same level, on the benchmark's
 * scenarios and on any files named; with the time each took (the fastest of three runs: native
 * {@code zstd} as a process reading the file, the stream in this JVM, warm, on one thread) and
 * how many blocks of the histories' stream primed a history. The bytes do not depend on the
 * machine's load; the times do.
 *
 * <p>{@code sizes [--scenarios mixed:42,mixed:7001 (or '' for none)] [--bytes 84000000] [--levels 3,9]
 * [--block-size BYTES] [--window BYTES] [--reset-interval BYTES] [FILE...]}
 */
public final class WireSizes {

    private static final int RUNS = 3;

    private final int blockSize;
    private final int window;
    private final long resetInterval;

    private WireSizes(int blockSize, int window, long resetInterval) {
        this.blockSize = blockSize;
        this.window = window;
        this.resetInterval = resetInterval;
    }

    /** Runs the comparison; returns the exit status. */
    public static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
        List<String> scenarios = List.of("mixed:42", "mixed:7001");
        int bytes = 84_000_000;
        int[] levels = {3, 9};
        int blockSize = AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE;
        int window = AdaptiveCompressionOptions.defaults().historyWindow();
        long resetInterval = AdaptiveCompressionOptions.FILE_RESET_INTERVAL;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scenarios" -> scenarios = args[++i].isEmpty() ? List.of() : List.of(args[i].split(","));
                case "--bytes" -> bytes = Integer.parseInt(args[++i]);
                case "--levels" -> levels = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                case "--block-size" -> blockSize = Integer.parseInt(args[++i]);
                case "--window" -> window = Integer.parseInt(args[++i]);
                case "--reset-interval" -> resetInterval = Long.parseLong(args[++i]);
                default -> files.add(Path.of(args[i]));
            }
        }
        List<Path> inputs = new ArrayList<>();
        for (String name : scenarios) {
            Path file = Files.createTempFile("wire-sizes-" + name.replace(':', '-'), ".bin");
            file.toFile().deleteOnExit();
            Files.write(file, Scenario.parse(name).generate(bytes));
            inputs.add(file);
        }
        inputs.addAll(files);
        WireSizes sizes = new WireSizes(blockSize, window, resetInterval);
        out.printf(Locale.ROOT, "blocks of %,d B; histories: window %,d B, a reset point every %,d B%n", blockSize,
                window, resetInterval);
        out.printf(Locale.ROOT, "| input | level | native zstd | blocks alone | with histories | alone / native"
                + " | histories / native | seconds: native, alone, histories | primes |%n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|%n");
        for (int i = 0; i < inputs.size(); i++) {
            Path input = inputs.get(i);
            String label = i < scenarios.size() ? scenarios.get(i) + " (" + Files.size(input) + " B)"
                    : input.getFileName() + " (" + Files.size(input) + " B)";
            byte[] data = Files.readAllBytes(input);
            for (int level : levels) {
                Result nativeZstd = fastest(() -> nativeZstd(input, level));
                Result alone = fastest(() -> sizes.adaptive(data, level, false));
                Result windowed = fastest(() -> sizes.adaptive(data, level, true));
                out.printf(Locale.ROOT, "| %s | %d | %,d | %,d | %,d | %.3f | %.3f | %.2f, %.2f, %.2f | %d |%n", label,
                        level, nativeZstd.bytes, alone.bytes, windowed.bytes, alone.bytes / (double) nativeZstd.bytes,
                        windowed.bytes / (double) nativeZstd.bytes, nativeZstd.seconds, alone.seconds,
                        windowed.seconds, primes(windowed.stream));
            }
        }
        return 0;
    }

    /** One contender's output: its length, the stream itself if kept, and the seconds it took. */
    private record Result(long bytes, byte[] stream, double seconds) {}

    /** A contender's run, timed by {@link #fastest}. */
    private interface Run {
        Result run() throws IOException, InterruptedException;
    }

    /** The run's output with the fastest of {@link #RUNS} runs' seconds. */
    private static Result fastest(Run run) throws IOException, InterruptedException {
        Result best = null;
        for (int i = 0; i < RUNS; i++) {
            long start = System.nanoTime();
            Result r = run.run();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (best == null || seconds < best.seconds) {
                best = new Result(r.bytes, r.stream, seconds);
            }
        }
        return best;
    }

    /** Bytes {@code zstd -level} writes for the file, streaming, as the CLI does. */
    private static Result nativeZstd(Path input, int level) throws IOException, InterruptedException {
        Process zstd = new ProcessBuilder("zstd", "-" + level, "-q", "-c", input.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long n;
        try (InputStream in = zstd.getInputStream()) {
            n = in.transferTo(OutputStream.nullOutputStream());
        }
        if (zstd.waitFor() != 0) {
            throw new IOException("zstd -" + level + " failed on " + input);
        }
        return new Result(n, null, 0);
    }

    /** The stream the library writes for {@code data} pinned to zstd at {@code level}, on one thread. */
    private Result adaptive(byte[] data, int level, boolean histories) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(data.length / 2);
        try (OutputStream out = AdaptiveOutputStream.builder().ladder("raw,zstd:" + level).controller("fixed:1")
                .blockSize(blockSize).history(histories).historyWindow(window).resetInterval(histories ? resetInterval : 0).build(sink)) {
            out.write(data);
        }
        return new Result(sink.size(), sink.toByteArray(), 0);
    }

    /** The blocks of {@code stream} that start a history primed with the stream's last bytes. */
    private static int primes(byte[] stream) {
        int primes = 0;
        int primed = FrameFormat.BLOCK_FLAG_PRIMED | FrameFormat.BLOCK_FLAG_PRIMED_SHORT;
        for (int at = FrameFormat.STREAM_HEADER_LENGTH; (stream[at] & 0xFF) != FrameFormat.END_OF_STREAM; ) {
            primes += (stream[at + 1] & primed) != 0 ? 1 : 0;
            at += FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(stream, at + 8);
        }
        return primes;
    }
}
