/*
 * One link-benchmark rate cell, traced block by block as StepTrace does, plus the controller's
 * LZ4 and zstd:1 speed (MB/s) and ratio figures and its writer overhead (ns a byte). Not part
 * of the build; run from the repository root after packaging the benchmarks module:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/RateTrace.java RUNS OUT_PREFIX KIND BITS_PER_S INPUT_BYTES
 *
 * e.g. "3 /tmp/c- changing 1e9 250000000" for changing data at 1000 Mbit/s (0 for unthrottled),
 * then `python3 docs/data/drivers/segments.py /tmp/c-2.txt` for wire bytes and rungs per kind
 * of changing data. The first transfer in a JVM is cold; the docs leave it out.
 */
package org.adaptivecompress.control;
import java.io.*;
import java.lang.reflect.Field;
import java.util.*;
import org.adaptivecompress.benchmarks.link.*;
import org.adaptivecompress.stream.*;

/** See the comment above. */
public class RateTrace {
    static Field f(String n) throws Exception { Field x = ThroughputController.class.getDeclaredField(n); x.setAccessible(true); return x; }
    public static void main(String[] a) throws Exception {
        LinkData kind = LinkData.byName(a[2]);
        long rate = (long) (Double.parseDouble(a[3]) / 8);
        LinkInput input = new LinkInput(kind.generate(16 << 20), Long.parseLong(a[4]));
        List<LinkTransfer.RateStep> steps = List.of();
        Field link = f("link"), guessed = f("linkGuessed"), spd = f("speed"), rat = f("ratio"), ovh = f("overheadPerByte");
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
                                lines.add(String.format("%5d t=%7.1fms r%d->%d c=%6.0fus out=%6d fifo=%7d wait=%6.0fus link=%8.2f%s rec=%d s1=%.0f s2=%.0f r1=%.2f r2=%.2f ovh=%.2f",
                                    n[0]++, (o.nanoTime() - t0) / 1e6, o.rung(), next, o.compressNanos()/1e3, o.storedLength(), o.fifoBytes(), o.writerWaitNanos()/1e3,
                                    (double) link.get(d) / 1e6, (boolean) guessed.get(d) ? "G" : " ", outs[0] == null ? -1 : outs[0].statistics().recompressedBlocks(),
                                    ((double[]) spd.get(d)).length > 2 ? ((double[]) spd.get(d))[1] / 1e6 : 0, ((double[]) spd.get(d)).length > 2 ? ((double[]) spd.get(d))[2] / 1e6 : 0,
                                    ((double[]) rat.get(d)).length > 2 ? ((double[]) rat.get(d))[1] : 0, ((double[]) rat.get(d)).length > 2 ? ((double[]) rat.get(d))[2] : 0, (double) ovh.get(d)));
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
            LinkTransfer.Result r = LinkTransfer.run(c, input, rate == 0 ? Long.MAX_VALUE : rate, steps);
            try (PrintWriter w = new PrintWriter(a[1] + run + ".txt")) { lines.forEach(w::println); }
            System.out.printf("run %d: %.3f s%n", run, r.seconds());
        }
    }
}
