/*
 * A link-benchmark rate cell through the default controller, traced block by block at little
 * cost: each block's figures go into arrays during the transfer and are written out after it,
 * so the trace does not slow the writer the way BlockTrace's formatted line per block does
 * (there, JSON unthrottled sent 9-13 blocks at LZ4 where the harness sends hundreds). Each
 * line: block, time (ms), rung -> next rung, why (the controller's reason for the next rung,
 * ThroughputController.REASON: 0 held, 1 model move, 2 move undone, 3 AdOC climb on a FIFO
 * that outran the link, 4 dither, 5 probe, 6 backlog spent, 7 backlog hides, 9 incompressible),
 * FIFO bytes, the writer's wait and direct-write time (us), the link estimate (MB/s; G: a
 * guess) and the last busy window's measurement, the predicted throughput at raw and LZ4
 * (T0, T1) and their pipeline speeds (P0, P1), codec time (us), cause (LinkEstimator.CAUSE,
 * what moved the estimate: 1 busy window lowered, 2 raised, 4 idle-window guess, 8/16 backlog
 * bound without/with the stall allowance, 32 direct writes, 64 emptied backlog), raw's and
 * LZ4's measured goodput (MB/s) @ the link it was measured on / the block it was measured at,
 * zstd:1's predicted throughput and pipeline speed (T2, P2), LZ4's and zstd:1's ratios (R1,
 * R2), and the writer's cost outside the codec (ns a byte): the block's sample where it began
 * with the FIFO empty (ovs, NaN otherwise) and WriterOverhead's estimate after it (ov), and the
 * measured goodput of dithers around raw and of raw held alone (D0, A0: MB/s @ link / block, as G0).
 * Then per transfer: seconds, wire MB, blocks per rung and how many blocks saw that estimate
 * above 1 ns a byte.
 *
 * Needs the REASON and CAUSE fields of docs/data/decision-reason-print.diff: from the
 * repository root, `git apply docs/data/decision-reason-print.diff`, then
 * `mvn -B -q -pl benchmarks -am -DskipTests package`, then
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/ReasonTrace.java RUNS OUT_PREFIX KIND BITS_PER_S INPUT_BYTES
 *
 * e.g. "5 /tmp/r- json 0 1073741824" for 1 GiB of JSON unthrottled (0 bits/s); writes
 * OUT_PREFIX0.txt ... The first transfer in a JVM is cold. `git apply -R` the diff afterwards.
 */
package org.adaptivecompress.control;
import java.io.*;
import java.lang.reflect.*;
import java.util.*;
import org.adaptivecompress.benchmarks.link.*;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.stream.*;

/** See the comment above. */
public class ReasonTrace {
    static final int N = 1 << 15;
    public static void main(String[] a) throws Exception {
        int runs = Integer.parseInt(a[0]);
        LinkInput input = new LinkInput(LinkData.byName(a[2]).generate(16 << 20), Long.parseLong(a[4]));
        long rate = (long) (Double.parseDouble(a[3]) / 8);
        Field est = ThroughputController.class.getDeclaredField("link"); est.setAccessible(true);
        Field cause = est.getType().getDeclaredField("CAUSE"); cause.setAccessible(true);
        Field lnk = est.getType().getDeclaredField("link"); lnk.setAccessible(true);
        Field gs = est.getType().getDeclaredField("linkGuessed"); gs.setAccessible(true);
        Field ml = est.getType().getDeclaredField("measuredLink"); ml.setAccessible(true);
        Method tp = ThroughputController.class.getDeclaredMethod("throughput", int.class); tp.setAccessible(true);
        Field gm = ThroughputController.class.getDeclaredField("goodput"); gm.setAccessible(true);
        Field dgm = ThroughputController.class.getDeclaredField("ditherGoodput"); dgm.setAccessible(true);
        Field gv = gm.getType().getDeclaredField("goodput"); gv.setAccessible(true);
        Field ga = gm.getType().getDeclaredField("linkAt"); ga.setAccessible(true);
        Field gb = gm.getType().getDeclaredField("measuredAt"); gb.setAccessible(true);
        Method ps = ThroughputController.class.getDeclaredMethod("pipelineSpeed", int.class); ps.setAccessible(true);
        Field ov = ThroughputController.class.getDeclaredField("overhead"); ov.setAccessible(true);
        Method opb = ov.getType().getDeclaredMethod("nanosPerByte"); opb.setAccessible(true);
        Method er = ThroughputController.class.getDeclaredMethod("estimatedRatio", int.class); er.setAccessible(true);
        for (int run = 0; run < runs; run++) {
            double[][] d = new double[34][N];
            long[] last = {-1};
            int[] n = {0};
            Contender c = new Contender() {
                public String name() { return "trace"; }
                public boolean adaptive() { return true; }
                public boolean fixed() { return false; }
                public void send(LinkInput in, OutputStream lk, RungTimeline t) throws IOException {
                    long t0 = System.nanoTime();
                    try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder(Ladder.defaultLadder()).controller(() -> new LevelController() {
                        final ThroughputController x = new ThroughputController();
                        public int initialRung(int top) { return x.initialRung(top); }
                        public int nextRung(Observation o) {
                            int next = x.nextRung(o);
                            int i = n[0]++;
                            if (i < N) try {
                                Object e = est.get(x);
                                d[0][i] = (o.nanoTime() - t0) / 1e6; d[1][i] = o.rung(); d[2][i] = next; d[3][i] = ThroughputController.REASON;
                                d[4][i] = o.fifoBytes(); d[5][i] = o.writerWaitNanos() / 1e3; d[6][i] = o.directWriteNanos() / 1e3;
                                d[7][i] = (double) lnk.get(e) / 1e6; d[8][i] = (boolean) gs.get(e) ? 1 : 0; d[9][i] = (double) ml.get(e) / 1e6;
                                d[10][i] = (double) tp.invoke(x, 0) / 1e6; d[11][i] = (double) tp.invoke(x, 1) / 1e6;
                                d[12][i] = (double) ps.invoke(x, 0) / 1e6; d[13][i] = (double) ps.invoke(x, 1) / 1e6;
                                d[14][i] = o.compressNanos() / 1e3; d[15][i] = cause.getInt(null);
                                d[22][i] = (double) tp.invoke(x, 2) / 1e6; d[23][i] = (double) ps.invoke(x, 2) / 1e6;
                                d[24][i] = (double) er.invoke(x, 1); d[25][i] = (double) er.invoke(x, 2);
                                long gap = o.nanoTime() - last[0] - o.compressNanos() - o.writerWaitNanos();
                                d[26][i] = last[0] >= 0 && o.fifoBytesAtBlockStart() == 0 && gap >= 0 ? (double) gap / o.uncompressedLength() : Double.NaN;
                                last[0] = o.nanoTime();
                                d[27][i] = (double) opb.invoke(ov.get(x));
                                Object g = gm.get(x); double[] gg = (double[]) gv.get(g); double[] gl = (double[]) ga.get(g); long[] gt = (long[]) gb.get(g);
                                Object dg = dgm.get(x); double[] dgg = (double[]) gv.get(dg); double[] dgl = (double[]) ga.get(dg); long[] dgt = (long[]) gb.get(dg);
                                if (dgg.length > 1) { int k = dgg.length / 2; d[28][i] = dgg[k] / 1e6; d[29][i] = dgl[k] / 1e6; d[30][i] = dgt[k]; d[31][i] = dgg[0] / 1e6; d[32][i] = dgl[0] / 1e6; d[33][i] = dgt[0]; }
                                if (gg.length > 1) { d[16][i] = gg[0] / 1e6; d[17][i] = gl[0] / 1e6; d[18][i] = gt[0]; d[19][i] = gg[1] / 1e6; d[20][i] = gl[1] / 1e6; d[21][i] = gt[1]; }
                            } catch (Exception ex) { throw new RuntimeException(ex); }
                            return next;
                        }
                        public boolean skipAfterIncompressible() { return x.skipAfterIncompressible(); }
                        public boolean learnsFromDirectWrites() { return x.learnsFromDirectWrites(); }
                        public boolean lendsHistories() { return x.lendsHistories(); }
                        public int recompressRung(int s) { return x.recompressRung(s); }
                        public void recompressed(int r, int u, long ns) { x.recompressed(r, u, ns); }
                    }).build(lk)) {
                        in.writeTo(out);
                    }
                }
                public InputStream decoder(InputStream in) { return new AdaptiveInputStream(in); }
            };
            LinkTransfer.Result r = LinkTransfer.run(c, input, rate == 0 ? Long.MAX_VALUE : rate, List.of());
            int[] per = new int[8];
            try (PrintWriter w = new PrintWriter(a[1] + run + ".txt")) {
                for (int i = 0; i < Math.min(n[0], N); i++) {
                    per[(int) d[1][i]]++;
                    w.printf("%5d t=%7.2f r%d->%d why=%d fifo=%7.0f wait=%6.0f dw=%6.0f link=%8.1f%s meas=%8.1f T0=%7.1f T1=%7.1f P0=%7.1f P1=%7.1f c=%5.0f cause=%3.0f G0=%6.0f@%6.0f/%5.0f G1=%6.0f@%6.0f/%5.0f T2=%7.1f P2=%7.1f R1=%5.2f R2=%5.2f ovs=%6.3f ov=%6.3f D0=%6.0f@%6.0f/%5.0f A0=%6.0f@%6.0f/%5.0f%n",
                        i, d[0][i], (int) d[1][i], (int) d[2][i], (int) d[3][i], d[4][i], d[5][i], d[6][i], d[7][i], d[8][i] > 0 ? "G" : " ", d[9][i],
                        d[10][i], d[11][i], d[12][i], d[13][i], d[14][i], d[15][i], d[16][i], d[17][i], d[18][i], d[19][i], d[20][i], d[21][i], d[22][i], d[23][i], d[24][i], d[25][i], d[26][i], d[27][i], d[28][i], d[29][i], d[30][i], d[31][i], d[32][i], d[33][i]);
                }
            }
            int heavy = 0;
            for (int i = 0; i < Math.min(n[0], N); i++) {
                heavy += d[27][i] > 1 ? 1 : 0;
            }
            System.out.printf("run %d: %.3f s wire %.1f MB rungs %s writer's cost over 1 ns/B at %d blocks%n", run, r.seconds(),
                    r.wireBytes() / 1e6, Arrays.toString(per), heavy);
        }
    }
}
