/*
 * A link-benchmark transfer through the default controller, traced block by block: for each
 * block its time, rung and the rung chosen next, codec time, frame length, FIFO depth, the
 * writer's wait, the link estimate (G: a guess raised by idle windows), how long the link sat
 * idle for want of bytes since the last block (-0 where the pipeline does not say), the frames
 * compressed again so far, the controller's LZ4 and zstd:1 speed (MB/s) and ratio figures and its writer
 * overhead (ns a byte); then a "final" line with the stream's statistics. Reads the controller's
 * private fields by reflection, so it follows the build it runs against. Not part of the
 * build; run from the repository root after `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/BlockTrace.java RUNS OUT_PREFIX step
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/BlockTrace.java RUNS OUT_PREFIX KIND BITS_PER_S INPUT_BYTES [history]
 *
 * -Dworkers=N before -cp gives the stream up to N compression workers and starts each line with
 * w and the workers its block was dispatched under (w1: the writer compressed it).
 *
 * KIND may also be "corpus", the demo's data (the reference corpus repeated to 16 MiB; INPUT_BYTES
 * is then ignored), and -Drungs=5,6 before -cp shows those two rungs' figures in the s1, s2, r1
 * and r2 columns instead of LZ4's and zstd:1's, e.g. `java -Drungs=5,6 -cp ... BlockTrace.java 6 /tmp/d- corpus 2e7 0` for the demo's
 * 20 Mbit/s link with zstd:15's and xz:6's figures.
 *
 * The first is the step scenario (24 MiB of JSON, 1000 -> 10 -> 1000 Mbit/s as the receiver
 * verifies each quarter); the second a rate cell, e.g. "3 /tmp/c- changing 1e9 250000000" for
 * changing data at 1000 Mbit/s (0 bits/s for unthrottled), after which
 * `python3 docs/data/drivers/segments.py /tmp/c-2.txt` gives wire bytes and rungs per kind of
 * changing data; "history" as a sixth argument turns histories on (the `history` contender),
 * and the lines then start with the controller's predicted throughput (MB/s) at raw, LZ4 and
 * zstd:1 (T0-T2), since those rungs' figures live apart from the speed and ratio columns, and
 * W while the controller withholds histories from the next block.
 * Writes OUT_PREFIX0.txt ... and prints each transfer's seconds. The first
 * transfer in a JVM is cold (JIT, native contexts); the docs leave it out.
 */
package org.adaptivecompress.control;
import java.io.*;
import java.lang.reflect.Field;
import java.util.*;
import org.adaptivecompress.benchmarks.link.*;
import org.adaptivecompress.stream.*;

/** See the comment above. */
public class BlockTrace {
    /** -Dworkers=N: the stream's maxWorkers (1, the default, compresses on the writer). */
    static final int WORKERS = Integer.getInteger("workers", 1);
    static Field f(String n) throws Exception { Field x = ThroughputController.class.getDeclaredField(n); x.setAccessible(true); return x; }
    /** A field of the object {@code owner} (a field of the controller) holds. */
    static Field field(Field owner, String n) throws Exception { Field x = owner.getType().getDeclaredField(n); x.setAccessible(true); return x; }
    static String predicted(ThroughputController d) throws Exception {
        java.lang.reflect.Method t = ThroughputController.class.getDeclaredMethod("throughput", int.class);
        t.setAccessible(true);
        return String.format("T0=%.0f T1=%.0f T2=%.0f %s| ", (double) t.invoke(d, 0) / 1e6, (double) t.invoke(d, 1) / 1e6, (double) t.invoke(d, 2) / 1e6,
                d.lendsHistories() ? "" : "W ");
    }
    /** The demo's data: the reference corpus (../shared/data/corpus) concatenated and repeated to {@code size}. */
    static byte[] corpus(int size) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (var files = java.nio.file.Files.list(java.nio.file.Paths.get("../shared/data/corpus"))) {
            for (var f : files.filter(f -> !f.getFileName().toString().matches(".*(README|COPYING).*")).sorted().toList()) {
                all.writeBytes(java.nio.file.Files.readAllBytes(f));
            }
        }
        byte[] src = all.toByteArray(), data = new byte[size];
        for (int i = 0; i < size; i += src.length) {
            System.arraycopy(src, 0, data, i, Math.min(src.length, size - i));
        }
        return data;
    }
    public static void main(String[] a) throws Exception {
        boolean step = a[2].equals("step");
        LinkInput input = step ? LinkInput.of(LinkData.JSON.generate(24 << 20))
                : a[2].equals("corpus") ? LinkInput.of(corpus(16 << 20))
                : new LinkInput(LinkData.byName(a[2]).generate(16 << 20), Long.parseLong(a[4]));
        // Which two rungs' speed and ratio figures the lines show (s1, s2, r1, r2 by default).
        int[] shown = Arrays.stream(System.getProperty("rungs", "1,2").split(",")).mapToInt(Integer::parseInt).toArray();
        long rate = step ? 125_000_000 : (long) (Double.parseDouble(a[3]) / 8);
        List<LinkTransfer.RateStep> steps = step
                ? List.of(new LinkTransfer.RateStep(0.25, 1_250_000), new LinkTransfer.RateStep(0.5, 125_000_000))
                : List.of();
        boolean history = a.length > 5 && a[5].equals("history");
        Field estimator = f("link"), figures = f("figures"), overhead = f("overhead");
        Field ovh = field(overhead, "perByte");
        Field link = field(estimator, "link"), guessed = field(estimator, "linkGuessed");
        Field spd = field(figures, "speed"), rat = field(figures, "ratio");
        int runs = Integer.parseInt(a[0]);
        for (int run = 0; run < runs; run++) {
            List<String> lines = new ArrayList<>();
            long[] n = {0, 0};
            Contender c = new Contender() {
                public String name() { return "trace"; }
                public boolean adaptive() { return true; }
                public boolean fixed() { return false; }
                public void send(LinkInput in, OutputStream lk, RungTimeline t) throws IOException {
                    long t0 = System.nanoTime();
                    AdaptiveOutputStream[] outs = new AdaptiveOutputStream[1];
                    try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> new LevelController() {
                        final ThroughputController d = new ThroughputController();
                        public int initialRung(int top) { return d.initialRung(top); }
                        public int nextRung(Observation o) {
                            int next = d.nextRung(o);
                            try {
                                lines.add((history ? predicted(d) : "") + (WORKERS > 1 ? "w" + o.workers() + " " : "") + String.format("%5d t=%7.1fms r%d->%d c=%6.0fus out=%6d fifo=%7d wait=%6.0fus link=%8.2f%s idle=%6.0fus rec=%d s1=%.0f s2=%.0f r1=%.2f r2=%.2f ovh=%.2f",
                                    n[0]++, (o.nanoTime() - t0) / 1e6, o.rung(), next, o.compressNanos()/1e3, o.storedLength(), o.fifoBytes(), o.writerWaitNanos()/1e3,
                                    (double) link.get(estimator.get(d)) / 1e6, (boolean) guessed.get(estimator.get(d)) ? "G" : " ", o.linkIdleNanos() / 1e3, outs[0] == null ? -1 : outs[0].statistics().recompressedBlocks(),
                                    ((double[]) spd.get(figures.get(d))).length > 2 ? ((double[]) spd.get(figures.get(d)))[shown[0]] / 1e6 : 0, ((double[]) spd.get(figures.get(d))).length > 2 ? ((double[]) spd.get(figures.get(d)))[shown[1]] / 1e6 : 0,
                                    ((double[]) rat.get(figures.get(d))).length > 2 ? ((double[]) rat.get(figures.get(d)))[shown[0]] : 0, ((double[]) rat.get(figures.get(d))).length > 2 ? ((double[]) rat.get(figures.get(d)))[shown[1]] : 0, (double) ovh.get(overhead.get(d))));
                            } catch (Exception e) { throw new RuntimeException(e); }
                            return next;
                        }
                        public boolean skipAfterIncompressible() { return d.skipAfterIncompressible(); }
                        public boolean learnsFromDirectWrites() { return d.learnsFromDirectWrites(); }
                        public boolean lendsHistories() { return d.lendsHistories(); }
                        public int recompressRung(int s) { int r = d.recompressRung(s); if (r != s) n[1]++; return r; }
                        public void recompressed(int r, int u, long ns) { d.recompressed(r, u, ns); }
                    }).history(history).maxWorkers(WORKERS).build(lk)) {
                        outs[0] = out;
                        in.writeTo(out);
                        lines.add("final " + out.statistics());
                    }
                }
                public InputStream decoder(InputStream in) { return new AdaptiveInputStream(in); }
            };
            LinkTransfer.Result r = LinkTransfer.run(c, input, rate == 0 ? Long.MAX_VALUE : rate, steps);
            try (PrintWriter w = new PrintWriter(a[1] + run + ".txt")) { lines.forEach(w::println); }
            System.out.printf("run %d: %.3f s%n", run, r.seconds());
        }
    }
}
