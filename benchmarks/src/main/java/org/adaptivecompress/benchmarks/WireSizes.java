package org.adaptivecompress.benchmarks;

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
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * {@code sizes}: the bytes a fixed zstd rung writes, with blocks that decode alone and with
 * histories (a reset point every 8 MiB, as the Hadoop codec and the CLI write files), against
 * native streaming {@code zstd} at the same level, on the benchmark's scenarios and on any
 * files named. Sizes only, one thread: they do not depend on the machine's load.
 *
 * <p>{@code sizes [--scenarios mixed:42,mixed:7001] [--bytes 84000000] [--levels 3,9] [FILE...]}
 */
public final class WireSizes {

    private static final long RESET_INTERVAL = 8L << 20;

    private WireSizes() {}

    /** Runs the comparison; returns the exit status. */
    public static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
        List<String> scenarios = List.of("mixed:42", "mixed:7001");
        int bytes = 84_000_000;
        int[] levels = {3, 9};
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scenarios" -> scenarios = List.of(args[++i].split(","));
                case "--bytes" -> bytes = Integer.parseInt(args[++i]);
                case "--levels" -> levels = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
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
        out.printf(Locale.ROOT, "| input | level | native zstd | blocks alone | with histories | alone / native"
                + " | histories / native |%n|---|---:|---:|---:|---:|---:|---:|%n");
        for (int i = 0; i < inputs.size(); i++) {
            Path input = inputs.get(i);
            String label = i < scenarios.size() ? scenarios.get(i) + " (" + Files.size(input) + " B)"
                    : input.getFileName() + " (" + Files.size(input) + " B)";
            for (int level : levels) {
                long nativeBytes = nativeZstd(input, level);
                long alone = adaptive(input, level, false);
                long windowed = adaptive(input, level, true);
                out.printf(Locale.ROOT, "| %s | %d | %,d | %,d | %,d | %.3f | %.3f |%n", label, level, nativeBytes,
                        alone, windowed, alone / (double) nativeBytes, windowed / (double) nativeBytes);
            }
        }
        return 0;
    }

    /** Bytes {@code zstd -level} writes for the file, streaming, as the CLI does. */
    private static long nativeZstd(Path input, int level) throws IOException, InterruptedException {
        Process zstd = new ProcessBuilder("zstd", "-" + level, "-q", "-c", input.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long n;
        try (InputStream in = zstd.getInputStream()) {
            n = in.transferTo(OutputStream.nullOutputStream());
        }
        if (zstd.waitFor() != 0) {
            throw new IOException("zstd -" + level + " failed on " + input);
        }
        return n;
    }

    /** Bytes the library writes for the file pinned to zstd at {@code level}, on one thread. */
    private static long adaptive(Path input, int level, boolean histories) throws IOException {
        CountingSink sink = new CountingSink();
        try (OutputStream out = AdaptiveOutputStream.builder().ladder("raw,zstd:" + level).controller("fixed:1")
                .history(histories).resetInterval(histories ? RESET_INTERVAL : 0).build(sink);
                InputStream in = Files.newInputStream(input)) {
            in.transferTo(out);
        }
        return sink.count;
    }

    /** Counts what is written to it. */
    private static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
