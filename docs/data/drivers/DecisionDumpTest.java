package org.adaptivecompress.control;

import java.io.PrintWriter;
import java.util.SplittableRandom;
import org.adaptivecompress.testing.LinkSimulation;
import org.adaptivecompress.testing.LinkSimulation.Profile;
import org.junit.jupiter.api.Test;

/**
 * Dumps the default controller's decisions over a grid of simulated transfers, to show that a
 * change meant to keep behaviour (a refactoring) keeps it: 1296 transfers of 600 blocks
 * through LinkSimulation (three kinds of data that change every 150 blocks, six link rates
 * that drop thirtyfold every 200 blocks, three noise levels, two FIFO sizes, three seeds),
 * each without histories and with them at three shares of warm blocks (a decorator plays the
 * engine's part: it starts, continues and withholds histories as asked). Each line holds the
 * transfer's simulated seconds, the rung of every block and, after each decision, what
 * recompressRung, skipAfterIncompressible and lendsHistories answered. Not part of the build;
 * from the repository root, on each of two builds:
 *
 *   cp docs/data/drivers/DecisionDumpTest.java core/src/test/java/org/adaptivecompress/control/
 *   mvn -B -q -pl core test -Dtest=DecisionDumpTest -Ddecisions.out=/tmp/decisions-BUILD.txt
 *   rm core/src/test/java/org/adaptivecompress/control/DecisionDumpTest.java
 *
 * then compare the two files (md5sum).
 */
class DecisionDumpTest {
    static final Profile JSON = Profile.ofMegabytes(new double[] {5000, 700, 350, 200, 60, 8, 2}, new double[] {1, 3.4, 5.8, 5.9, 6.6, 7.1, 7.6});
    static final Profile TEXT = Profile.ofMegabytes(new double[] {5000, 500, 240, 130, 40, 6, 1.5}, new double[] {1, 1.6, 2.4, 2.5, 2.8, 3.1, 3.5});
    static final Profile RANDOM = Profile.ofMegabytes(new double[] {5000, 2000, 900, 400, 100, 20, 5}, new double[] {1, 1, 1, 1, 1, 1, 1});

    /** Decorates a controller: rungs 2 and up keep histories; some blocks are warm. */
    static final class Historian implements LevelController {
        final ThroughputController inner = new ThroughputController();
        final SplittableRandom random;
        final double warmShare;
        long[] lastEnd = new long[7];
        long input;
        boolean[] open = new boolean[7];
        final StringBuilder log = new StringBuilder();
        Historian(long seed, double warmShare) { random = new SplittableRandom(seed); this.warmShare = warmShare; java.util.Arrays.fill(lastEnd, -1L << 40); }
        public int initialRung(int top) { return inner.initialRung(top); }
        public int nextRung(Observation o) {
            boolean lent = inner.lendsHistories();
            int r = o.rung();
            boolean keeps = r >= 2 && lent && !o.incompressible();
            input += o.uncompressedLength();
            boolean started = keeps && (!open[r] || input - lastEnd[r] > (1 << 20));
            if (keeps) { open[r] = true; lastEnd[r] = input; }
            boolean warm = keeps && !started && random.nextDouble() < warmShare;
            int stored = warm ? Math.max(8, o.storedLength() / 3000) : o.storedLength();
            long nanos = warm ? Math.max(1, o.compressNanos() / 40) : started ? o.compressNanos() * 3 : o.compressNanos();
            Observation h = Observation.builder().rung(r).topRung(o.topRung()).fifo(o.fifoBytesAtBlockStart(), o.fifoBytes())
                    .block(o.uncompressedLength(), stored, o.incompressible()).compressNanos(nanos).workers(o.workers())
                    .drainedBytes(o.drainedBytes()).nanoTime(o.nanoTime()).writerWaitNanos(o.writerWaitNanos())
                    .directWrites(o.directWriteBytes(), o.directWriteNanos())
                    .historyStarted(started).historyWithheld(r >= 2 && !lent).build();
            int next = inner.nextRung(h);
            log.append(next).append(lent ? "" : "w").append(inner.recompressRung(0)).append(inner.skipAfterIncompressible() ? "s" : "").append(',');
            return next;
        }
        public boolean skipAfterIncompressible() { return inner.skipAfterIncompressible(); }
        public boolean learnsFromDirectWrites() { return inner.learnsFromDirectWrites(); }
        public boolean lendsHistories() { return inner.lendsHistories(); }
        public int recompressRung(int s) { return inner.recompressRung(s); }
    }

    /** Records recompressRung and skipAfterIncompressible after each decision too. */
    static final class Recorder implements LevelController {
        final ThroughputController inner = new ThroughputController();
        final StringBuilder log = new StringBuilder();
        public int initialRung(int top) { return inner.initialRung(top); }
        public int nextRung(Observation o) {
            int next = inner.nextRung(o);
            log.append(next).append(inner.recompressRung(0)).append(inner.recompressRung(1)).append(inner.skipAfterIncompressible() ? "s" : "").append(',');
            return next;
        }
        public boolean skipAfterIncompressible() { return inner.skipAfterIncompressible(); }
        public boolean learnsFromDirectWrites() { return inner.learnsFromDirectWrites(); }
        public int recompressRung(int s) { return inner.recompressRung(s); }
    }

    @Test
    void dump() throws Exception {
        try (PrintWriter out = new PrintWriter(System.getProperty("decisions.out", "decisions.txt"))) {
            Profile[] profiles = {JSON, TEXT, RANDOM};
            double[] links = {1.25e5, 1.25e6, 1.25e7, 1.25e8, 1.25e9, 1e10};
            double[] noises = {0, 0.05, 0.2};
            long[] fifos = {4 << 20, 16 << 20};
            for (int p = 0; p < profiles.length; p++) {
                for (double link : links) {
                    for (double noise : noises) {
                        for (long fifo : fifos) {
                            for (long seed = 1; seed <= 3; seed++) {
                                Profile profile = profiles[p]; Profile other = profiles[(p + 1) % 3];
                                Recorder rec = new Recorder();
                                LinkSimulation.Result r = new LinkSimulation(128 << 10, fifo, noise, seed).run(rec, 600,
                                        i -> (i / 150) % 2 == 0 ? profile : other, i -> (i / 200) % 2 == 0 ? link : link / 30);
                                out.println("plain p" + p + " l" + link + " n" + noise + " f" + fifo + " s" + seed + " " + r.seconds() + " " + r.trace() + " " + rec.log);
                                for (double warm : new double[] {0, 0.5, 0.95}) {
                                    Historian h = new Historian(seed, warm);
                                    LinkSimulation.Result hr = new LinkSimulation(128 << 10, fifo, noise, seed).run(h, 600,
                                            i -> (i / 150) % 2 == 0 ? profile : other, i -> (i / 200) % 2 == 0 ? link : link / 30);
                                    out.println("hist w" + warm + " p" + p + " l" + link + " n" + noise + " f" + fifo + " s" + seed + " " + hr.seconds() + " " + hr.trace() + " " + h.log);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
