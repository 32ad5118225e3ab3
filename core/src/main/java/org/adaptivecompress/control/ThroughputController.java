package org.adaptivecompress.control;

import java.util.Arrays;

/**
 * Picks the rung that delivers the most input bytes per second, from a model of each rung and
 * of the link, instead of AdOC's one-rung-at-a-time walk.
 *
 * <p>With the compressor and the sender running side by side, rung {@code r} delivers
 * {@code min(speed[r], link * ratio[r])} bytes of input per second: it is limited either by how
 * fast it compresses or by how fast the link takes its output (Omote et al., 2013: the right
 * codec is the one whose speed just exceeds the link's rate times its ratio). The controller
 * keeps, per rung, moving averages of the compression speed and ratio it measured on recent
 * blocks, and a moving average of the link's drain rate, and after each block moves to the rung
 * the model says is best, however far away it is.
 *
 * <ul>
 *   <li><b>Link rate</b> is measured only while the sender was busy the whole block (a backlog
 *       at both ends); when the FIFO ran dry the link is faster than what was fed to it, so the
 *       estimate doubles for every such window in a row.
 *   <li><b>Rungs never measured</b> are extrapolated from the nearest measured one (three times
 *       slower and 8 % smaller per rung up; rung 1 is guessed at a ratio of 1.5), so the first
 *       decisions can jump straight to a plausible rung; a rung's own measurements replace the
 *       guess.
 *   <li><b>Probing</b>: every {@value #PROBE_INTERVAL} blocks on one rung, a neighbour whose
 *       figures are older than {@value #STALE_AFTER} blocks is tried for one block, upwards only
 *       if the model does not rule it out, so estimates stay fresh when the data changes.
 *   <li><b>Data changes</b> show at once in the current rung's averages and reach the other
 *       rungs through probes; rungs are deliberately not coupled (see {@code learnRung}).
 *   <li><b>Hysteresis</b>: the rung changes only for a predicted gain of
 *       {@value #HYSTERESIS_PERCENT} % or more over the rung it holds (a probe does not count as
 *       holding), so noise does not make it flap.
 *   <li><b>Dithering</b>: when one rung leaves the link idle and its neighbour leaves the
 *       compressor idle, blocks alternate between them in the proportion that keeps both busy,
 *       which beats either rung alone (compression of one block overlaps sending of another).
 *   <li><b>Incompressible data</b> drops to raw at once.
 * </ul>
 *
 * <p>One instance per stream; not thread-safe.
 */
public final class ThroughputController implements LevelController {

    static final int PROBE_INTERVAL = 8;
    static final int STALE_AFTER = 24;
    static final int HYSTERESIS_PERCENT = 8;

    private static final double ALPHA = 0.3;
    private static final double HYSTERESIS = 1 + HYSTERESIS_PERCENT / 100.0;
    private static final double STEP_SLOWER = 3.0;
    private static final double STEP_SMALLER = 1.08;
    private static final double RAW_SPEED_GUESS = 10e9;
    private static final double IDLE_LINK_GROWTH = 2;
    static final int LINK_WINDOW_BYTES = 256 * 1024;
    static final int LINK_WINDOW_MILLIS = 100;
    static final int LINK_WINDOW_GROWTH = 256 * 1024;
    /** The most a sender writes at once (AdaptiveOutputStream's FIFO writes 64 KiB chunks). */
    private static final int SENDER_WRITE = 64 * 1024;
    private static final double LINK_SLOWED = 0.8;
    private static final double LINK_ALPHA = 0.6;
    private static final double FIRST_RUNG_RATIO_GUESS = 1.5;
    private static final double MAX_LINK = 1e12;
    private static final double PLAUSIBLE_PROBE = 0.7;
    private static final double INCOMPRESSIBLE = 32.0 / 31;
    private static final double MIN_DITHER_GAIN = 1.03;

    private double[] speed = new double[0];
    private double[] ratio = new double[0];
    private long[] measuredAt = new long[0];
    private double link = Double.NaN;
    private long blocks;
    private long windowStartNanos = -1;
    private long windowStartDrained;
    private long windowStartFifo;
    private double windowStartLink;
    private boolean windowBusy;
    /** Blocks since the held rung (the one dithering and probes return to) last changed. */
    private int sinceChange;
    private int probedFrom = -1;
    private boolean probeUpNext;
    private boolean fifoOutrunsLink;
    private int held;
    private double ditherCredit;

    @Override
    public int initialRung(int top) {
        size(top);
        return 0;
    }

    @Override
    public int nextRung(Observation o) {
        size(o.topRung());
        blocks++;
        int current = o.rung();
        learnLink(o);
        if (o.incompressible()) {
            // Raw at once. The estimates stay: the engine stores the following blocks raw
            // without trying, retrying ever more rarely, so an isolated JPEG in a text stream
            // costs one block and a random stream costs almost nothing.
            probedFrom = -1;
            return 0;
        }
        learnRung(current, o);
        if (Double.isNaN(link)) {
            // No link measurement yet: climb as AdOC does while the FIFO grows past a block, so
            // a slow link is not fed raw blocks until the first measurement window closes.
            boolean growing = o.fifoGrowth() > 0 && o.fifoBytes() > o.uncompressedLength();
            held = growing ? Math.min(current + 1, o.topRung()) : current;
            return held;
        }
        // Hysteresis is measured from the rung held before a probe, not from the probed one:
        // otherwise a chain of probes could walk down a ladder of near-equal rungs.
        int home = probedFrom >= 0 ? probedFrom : held;
        probedFrom = -1;
        int best = best(o.topRung());
        if (best != home && throughput(best) > throughput(home) * HYSTERESIS) {
            home = best;
        } else if (fifoOutrunsLink && home < o.topRung()) {
            // The FIFO fills faster than the (still settling) link estimate allows: climb a
            // rung as AdOC would, until the estimate catches up.
            home++;
        }
        fifoOutrunsLink = false;
        sinceChange = home == held ? sinceChange + 1 : 0;
        held = home;
        int next = dither(home, o.topRung());
        if (next == home && sinceChange >= PROBE_INTERVAL) {
            int probe = probe(home, o.topRung());
            if (probe != home) {
                probedFrom = home;
                sinceChange = 0;
                next = probe;
            }
        }
        return next;
    }

    /**
     * When neither of two adjacent rungs keeps both the compressor and the link busy (one
     * leaves the link idle, the other the compressor), alternating them in the right proportion
     * delivers more than either: compression of one block overlaps sending of another. Returns
     * {@code home} or its neighbour so that the neighbour's share of blocks approaches the best
     * proportion, spread evenly (error diffusion).
     */
    private int dither(int home, int top) {
        double bestGain = MIN_DITHER_GAIN;
        int partner = -1;
        double partnerShare = 0;
        for (int other : new int[] {home - 1, home + 1}) {
            if (other < 0 || other > top) {
                continue;
            }
            double share = mixShare(home, other);
            if (share > 0 && share < 1) {
                double gain = mixedThroughput(home, other, share) / throughput(home);
                if (gain > bestGain) {
                    bestGain = gain;
                    partner = other;
                    partnerShare = share;
                }
            }
        }
        if (partner < 0) {
            ditherCredit = 0;
            return home;
        }
        ditherCredit += partnerShare;
        if (ditherCredit >= 1) {
            ditherCredit -= 1;
            return partner;
        }
        return home;
    }

    /** The share of blocks at {@code b} (the rest at {@code a}) that makes compressing and sending take equal time. */
    private double mixShare(int a, int b) {
        double cpuA = 1 / estimatedSpeed(a);
        double cpuB = 1 / estimatedSpeed(b);
        double linkA = 1 / (link * effectiveRatio(a));
        double linkB = 1 / (link * effectiveRatio(b));
        double denominator = (linkB - linkA) - (cpuB - cpuA);
        return denominator == 0 ? -1 : (cpuA - linkA) / denominator;
    }

    private double mixedThroughput(int a, int b, double shareB) {
        double cpu = (1 - shareB) / estimatedSpeed(a) + shareB / estimatedSpeed(b);
        double wire = ((1 - shareB) / effectiveRatio(a) + shareB / effectiveRatio(b)) / link;
        return 1 / Math.max(cpu, wire);
    }

    /** The predicted input bytes per second at {@code rung}. */
    double throughput(int rung) {
        return Math.min(estimatedSpeed(rung), link * effectiveRatio(rung));
    }

    /** A block that would not shrink by 1/32 is stored raw: it costs the time and gains nothing. */
    private double effectiveRatio(int rung) {
        double ratio = estimatedRatio(rung);
        return ratio < INCOMPRESSIBLE ? 1 : ratio;
    }

    private int best(int top) {
        int best = 0;
        for (int r = 1; r <= top; r++) {
            if (throughput(r) > throughput(best)) {
                best = r;
            }
        }
        return best;
    }

    /** A neighbour whose figures are stale, alternating up and down, unless the model rules it out. */
    private int probe(int current, int top) {
        probeUpNext = !probeUpNext;
        int[] order = probeUpNext ? new int[] {current + 1, current - 1} : new int[] {current - 1, current + 1};
        for (int candidate : order) {
            if (candidate < 0 || candidate > top || blocks - measuredAt[candidate] < STALE_AFTER) {
                continue;
            }
            if (candidate > current && throughput(candidate) < throughput(current) * PLAUSIBLE_PROBE) {
                continue;
            }
            return candidate;
        }
        return current;
    }

    /**
     * Measures the link over windows of at least {@value #LINK_WINDOW_BYTES} bytes drained,
     * {@value #LINK_WINDOW_MILLIS} ms, or as much FIFO growth: a sender writes in chunks, so the
     * drained count moves in steps that a per-block rate would turn into noise, while a FIFO that
     * fills fast says at once that the link has slowed.
     */
    private void learnLink(Observation o) {
        boolean senderBusy = o.fifoBytesAtBlockStart() > 0 && o.fifoBytes() > 0;
        if (windowStartNanos < 0) {
            startWindow(o);
            return;
        }
        windowBusy &= senderBusy;
        long elapsed = o.nanoTime() - windowStartNanos;
        long drained = o.drainedBytes() - windowStartDrained;
        long grown = o.fifoBytes() - windowStartFifo;
        boolean enoughDrained = drained >= LINK_WINDOW_BYTES;
        boolean timeUp = elapsed >= LINK_WINDOW_MILLIS * 1_000_000L;
        if (!enoughDrained && !timeUp) {
            if (grown >= LINK_WINDOW_GROWTH && windowBusy && !Double.isNaN(link)) {
                // The FIFO filled fast with little drained: the link is at most what drained plus
                // one sender write still in flight. An upper bound, so it only ever lowers the
                // estimate, but it reacts to a link that slowed within a few blocks.
                double atMost = (drained + SENDER_WRITE) * 1e9 / Math.max(1, elapsed);
                fifoOutrunsLink = atMost < windowStartLink * LINK_SLOWED;
                link = Math.min(link, atMost);
            }
            return;
        }
        double observed = drained * 1e9 / Math.max(1, elapsed);
        if (windowBusy) {
            link = Double.isNaN(link) ? observed : link + LINK_ALPHA * (observed - link);
        } else {
            // The link took everything offered, so it is faster than that by an unknown margin:
            // double the estimate for every such window in a row, as TCP's slow start does, so
            // that after a few of them faster rungs (raw at last) get their turn.
            double floor = Double.isNaN(link) ? observed : Math.max(link, observed);
            link = Math.min(MAX_LINK, Math.max(floor * IDLE_LINK_GROWTH, 1));
        }
        startWindow(o);
    }

    private void startWindow(Observation o) {
        windowStartNanos = o.nanoTime();
        windowStartDrained = o.drainedBytes();
        windowStartFifo = o.fifoBytes();
        windowStartLink = link;
        windowBusy = true;
    }

    /**
     * Each rung keeps moving averages of its own speed and ratio, nothing shared between rungs:
     * coupling them (scaling every rung by what one measured) lets estimates of rungs nobody
     * measures drift. Data changes reach the other rungs through probes instead.
     */
    private void learnRung(int rung, Observation o) {
        if (o.compressNanos() <= 0 || o.uncompressedLength() <= 0) {
            return;
        }
        double measuredSpeed = o.uncompressedLength() * 1e9 / o.compressNanos();
        double measuredRatio = rung == 0 ? 1 : (double) o.uncompressedLength() / (o.storedLength() + 20);
        speed[rung] = Double.isNaN(speed[rung]) ? measuredSpeed : speed[rung] + ALPHA * (measuredSpeed - speed[rung]);
        ratio[rung] = Double.isNaN(ratio[rung]) ? measuredRatio : ratio[rung] + ALPHA * (measuredRatio - ratio[rung]);
        measuredAt[rung] = blocks;
    }

    private double estimatedSpeed(int rung) {
        if (!Double.isNaN(speed[rung])) {
            return speed[rung];
        }
        int known = nearestKnown(speed, rung);
        if (known < 0) {
            return RAW_SPEED_GUESS / Math.pow(STEP_SLOWER, rung);
        }
        return speed[known] / Math.pow(STEP_SLOWER, rung - known);
    }

    private double estimatedRatio(int rung) {
        if (rung == 0) {
            return 1;
        }
        if (!Double.isNaN(ratio[rung])) {
            return ratio[rung];
        }
        int known = nearestKnown(ratio, rung);
        if (known <= 0) {
            // Nothing measured yet: guess that the data compresses somewhat, so the controller
            // tries; one block shows whether it does.
            return FIRST_RUNG_RATIO_GUESS * Math.pow(STEP_SMALLER, rung - 1);
        }
        return ratio[known] * Math.pow(STEP_SMALLER, rung - known);
    }

    /** The measured rung nearest to {@code rung}, preferring the one below; -1 if none. */
    private static int nearestKnown(double[] values, int rung) {
        for (int d = 1; d < values.length; d++) {
            if (rung - d >= 0 && !Double.isNaN(values[rung - d])) {
                return rung - d;
            }
            if (rung + d < values.length && !Double.isNaN(values[rung + d])) {
                return rung + d;
            }
        }
        return -1;
    }

    private void size(int top) {
        if (speed.length != top + 1) {
            speed = new double[top + 1];
            ratio = new double[top + 1];
            measuredAt = new long[top + 1];
            Arrays.fill(speed, Double.NaN);
            Arrays.fill(ratio, Double.NaN);
            Arrays.fill(measuredAt, Long.MIN_VALUE / 2);
        }
    }

    @Override
    public String toString() {
        return "throughput";
    }
}
