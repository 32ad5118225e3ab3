package org.adaptivecompress.benchmarks;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * {@code memory}: what a reader holds while it decodes a stream whose histories are all open,
 * in windows per history: the bound the docs state. The writer
 * moves every block to the next rung of the default ladder, so every zstd and xz rung keeps a
 * history; the reader's resident set (zstd's windows in native memory, LZMA2's dictionaries and
 * the tail on the heap) and its heap in use are read mid-stream, once every history is open,
 * over a baseline taken the same way on the same data without histories. Linux only (it reads
 * {@code /proc/self/status}); the reader runs in a JVM of its own whose heap is committed and
 * touched up front, so the resident set grows by native memory only:
 * {@code memory [--window 8388608] [--bytes N]} (it starts that JVM itself). The window is the
 * writer's {@code historyWindow}: each rung keeps its level's native window up to it, and the
 * stream declares the largest, which is what the bound counts per history.
 */
public final class DecoderMemory {

    private static final int TAIL = 2 << 20;

    private DecoderMemory() {}

    /**
     * Writes the two streams to temporary files, then measures their decoding in a JVM of its own
     * (heap committed and touched up front), so that nothing the writer freed is reused by the
     * reader without showing in the resident set; returns the exit status.
     */
    public static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
        if (args.length > 0 && args[0].equals("--measure")) {
            return measure(args, out);
        }
        int window = AdaptiveCompressionOptions.defaults().historyWindow();
        int bytes = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--window" -> window = Integer.parseInt(args[++i]);
                case "--bytes" -> bytes = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("usage: memory [--window BYTES] [--bytes BYTES]");
            }
        }
        Ladder ladder = Ladder.defaultLadder();
        // Long enough that every history has been through two windows when the reader measures.
        bytes = bytes > 0 ? bytes
                : (int) Math.min(Scenario.MAX_UNIQUE_BYTES, Math.max(32 << 20, 3L * ladder.top() * window));
        byte[] data = Scenario.parse("mixed:7001").generate(bytes);
        Path alone = Files.createTempFile("memory-alone", ".adc");
        Path windowed = Files.createTempFile("memory-windowed", ".adc");
        try {
            Files.write(alone, write(data, ladder, false, window));
            Files.write(windowed, write(data, ladder, true, window));
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String jar = Path.of(DecoderMemory.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
            Process child = new ProcessBuilder(java, "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-cp", jar,
                    BenchmarkMain.class.getName(), "memory", "--measure", alone.toString(), windowed.toString(),
                    String.valueOf(window), String.valueOf(data.length)).inheritIO().start();
            return child.waitFor();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        } finally {
            Files.deleteIfExists(alone);
            Files.deleteIfExists(windowed);
        }
    }

    /** {@code --measure ALONE WINDOWED WINDOW BYTES}: decodes both, measures, prints. */
    private static int measure(String[] args, PrintStream out) throws IOException {
        byte[] alone = Files.readAllBytes(Path.of(args[1]));
        byte[] windowed = Files.readAllBytes(Path.of(args[2]));
        int window = Integer.parseInt(args[3]);
        int bytes = Integer.parseInt(args[4]);
        Ladder ladder = Ladder.defaultLadder();
        int zstd = 0;
        int xz = 0;
        for (int r = 1; r < ladder.size(); r++) {
            zstd += ladder.rung(r).codec() == CodecType.ZSTD ? 1 : 0;
            xz += ladder.rung(r).codec() == CodecType.XZ ? 1 : 0;
        }
        int measureAt = bytes / 10 * 9;
        decode(alone, measureAt); // warms the JIT and the codecs up
        Usage baseline = decode(alone, measureAt);
        Usage open = decode(windowed, measureAt);
        long nativeBytes = open.resident - baseline.resident;
        long heapBytes = open.heap - baseline.heap;
        out.printf(Locale.ROOT, "declared window %,d B, %,d B of mixed:7001, %d zstd and %d xz histories open%n", window,
                bytes, zstd, xz);
        out.printf(Locale.ROOT, "native (resident set): %+,d B, %.2f declared windows per zstd history%n", nativeBytes,
                nativeBytes / (double) window / zstd);
        out.printf(Locale.ROOT, "heap in use: %+,d B: the xz history's window, the 2 MiB tail and a 2 MiB prime"
                + " buffer are %,d B%n", heapBytes, (long) xz * window + 2 * TAIL);
        out.printf(Locale.ROOT, "together %,d B for %d histories: %.2f windows + 4 MiB%n", nativeBytes + heapBytes,
                zstd + xz, (nativeBytes + heapBytes - 2.0 * TAIL) / window);
        return 0;
    }

    private static byte[] write(byte[] data, Ladder ladder, boolean history, int window) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = AdaptiveOutputStream.builder().ladder(ladder).controller(RungRotation::new)
                .history(history).historyWindow(window).build(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    /** Decodes {@code stream} up to {@code upTo} bytes and measures there, the reader still open. */
    private static Usage decode(byte[] stream, int upTo) throws IOException {
        try (InputStream in = AdaptiveInputStream.builder().maxWindow(64 << 20).build(new ByteArrayInputStream(stream))) {
            in.readNBytes(upTo);
            Usage usage = Usage.now();
            in.transferTo(OutputStream.nullOutputStream());
            return usage;
        }
    }

    /** The process's resident set and the heap in use after a collection. */
    private record Usage(long resident, long heap) {
        static Usage now() throws IOException {
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long resident = 0;
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    resident = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
            return new Usage(resident, heap);
        }
    }

}
