/*
 * The step scenario, traced block by block: for each block its time, rung and the rung chosen
 * next, codec time, frame length, FIFO depth, the writer's wait, the link estimate (G: a guess
 * raised by idle windows) and the frames compressed again so far; a "final" line with the
 * stream's statistics. Reads the default controller's private fields by reflection, so it
 * follows the build it runs against. Not part of the build; run from the repository root after
 * `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/StepTrace.java RUNS OUT_PREFIX
 *
 * writes OUT_PREFIX0.txt ... and prints each transfer's seconds. The first transfer in a JVM is
 * cold (JIT, native contexts); the docs leave it out.
 */
package org.adaptivecompress.control;
import java.io.*;
import java.lang.reflect.Field;
import java.util.*;
import org.adaptivecompress.benchmarks.link.*;
import org.adaptivecompress.stream.*;

/** See the comment above. */
public class StepTrace {
    static Field f(String n) throws Exception { Field x = ThroughputController.class.getDeclaredField(n); x.setAccessible(true); return x; }
    public static void main(String[] a) throws Exception {
        int size = 24 << 20;
        LinkInput input = LinkInput.of(LinkData.JSON.generate(size));
        List<LinkTransfer.RateStep> steps = List.of(new LinkTransfer.RateStep(0.25, 1_250_000), new LinkTransfer.RateStep(0.5, 125_000_000));
        Field link = f("link"), guessed = f("linkGuessed");
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
                                lines.add(String.format("%5d t=%7.1fms r%d->%d c=%6.0fus out=%6d fifo=%7d wait=%6.0fus link=%8.2f%s rec=%d",
                                    n[0]++, (o.nanoTime() - t0) / 1e6, o.rung(), next, o.compressNanos()/1e3, o.storedLength(), o.fifoBytes(), o.writerWaitNanos()/1e3,
                                    (double) link.get(d) / 1e6, (boolean) guessed.get(d) ? "G" : " ", outs[0] == null ? -1 : outs[0].statistics().recompressedBlocks()));
                            } catch (Exception e) { throw new RuntimeException(e); }
                            return next;
                        }
                        public boolean skipAfterIncompressible() { return d.skipAfterIncompressible(); }
                        public boolean learnsFromDirectWrites() { return d.learnsFromDirectWrites(); }
                        public int recompressRung(int s) { int r = d.recompressRung(s); if (r != s) n[1]++; return r; }
                    }).build(lk)) {
                        outs[0] = out;
                        in.writeTo(out);
                        lines.add("final " + out.statistics());
                    }
                }
                public InputStream decoder(InputStream in) { return new AdaptiveInputStream(in); }
            };
            LinkTransfer.Result r = LinkTransfer.run(c, input, 125_000_000, steps);
            try (PrintWriter w = new PrintWriter(a[1] + run + ".txt")) { lines.forEach(w::println); }
            System.out.printf("run %d: %.3f s%n", run, r.seconds());
        }
    }
}
