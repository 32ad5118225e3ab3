package org.adaptivecompress.control;

import java.util.Arrays;
import org.adaptivecompress.format.FrameFormat;

/**
 * Measures what holding each rung really delivered: input bytes per second over runs of blocks
 * compressed while the controller held that rung, discounted by how much faster the FIFO filled
 * than it drained (a growing backlog is goodput the link has not yet accepted).
 *
 * <p>The throughput model assumes the compressor and the link are independent. They are not when
 * the link is a process on the same cores (unthrottled loopback, a receiver that decodes on the
 * machine that compresses): every cycle spent compressing slows the "link" the model measured
 * while it was idle, and the model then prefers a codec that delivers less. The meter is the
 * check: a move the model proposes is refused while the rung it would leave has measured more.
 *
 * <p>A sample needs {@value #MIN_BLOCKS} blocks and {@value #MIN_MILLIS} ms, so one scheduling
 * hiccup does not decide; it stays valid for {@value #FRESH_BLOCKS} blocks and while the link
 * rate measured with a backlog stays within a factor of {@value #LINK_DRIFT} of what it was,
 * since a different link makes a different rung best. That rate, not the controller's
 * estimate: the estimate grows on its own while a slow codec keeps the link idle, which says
 * nothing new about the link.
 *
 * <p>A sample that refuted what the model predicted may be kept longer (see
 * {@link #keepVerdict}): measuring again means holding the refuted choice once more.
 */
final class GoodputMeter {

    static final int MIN_BLOCKS = 8;
    static final int MIN_MILLIS = 10;
    static final int FRESH_BLOCKS = 1024;
    /** The longest a refuted sample stays valid: sixteen times {@value #FRESH_BLOCKS} blocks. */
    static final int LONGEST_VERDICT = 16 * FRESH_BLOCKS;
    static final double LINK_DRIFT = 2;
    private static final double ALPHA = 0.5;

    private double[] goodput = new double[0];
    private long[] measuredAt = new long[0];
    private double[] linkAt = new double[0];
    /** Blocks each rung's sample stays valid: {@value #FRESH_BLOCKS}, or longer once refuted (see keepVerdict). */
    private int[] freshFor = new int[0];
    /** Whether each rung's sample stays valid on a faster link (see keepVerdict). */
    private boolean[] keptOnFasterLink = new boolean[0];

    private int runRung = -1;
    private int runBlocks;
    private long runStartNanos;
    private long runStartDrained;
    private long runInput;
    private long runWire;

    /** Starts over with {@code rungs} rungs and nothing measured. */
    void size(int rungs) {
        if (goodput.length != rungs) {
            goodput = new double[rungs];
            measuredAt = new long[rungs];
            linkAt = new double[rungs];
            freshFor = new int[rungs];
            keptOnFasterLink = new boolean[rungs];
            forget();
        }
    }

    /**
     * Accounts block {@code o}, compressed while {@code held} was the rung held, as block number
     * {@code block} of the stream, with the link last measured at {@code link} (NaN if never).
     */
    void observe(Observation o, int held, long block, double link) {
        if (held != runRung) {
            startRun(o, held);
            return;
        }
        runBlocks++;
        runInput += o.uncompressedLength();
        runWire += o.storedLength() + FrameFormat.BLOCK_HEADER_LENGTH;
        long elapsed = o.nanoTime() - runStartNanos;
        if (runBlocks < MIN_BLOCKS || elapsed < MIN_MILLIS * 1_000_000L) {
            return;
        }
        double drained = o.drainedBytes() - runStartDrained;
        double accepted = Math.min(1, drained / runWire);
        double sample = runInput * 1e9 / elapsed * accepted;
        boolean fresh = isFresh(held, block, link);
        goodput[held] = fresh ? goodput[held] + ALPHA * (sample - goodput[held]) : sample;
        measuredAt[held] = block;
        linkAt[held] = link;
        startRun(o, held);
    }

    /**
     * Whether holding {@code candidate} measurably delivered less than holding {@code current},
     * both measured recently on a link like this one.
     */
    boolean measuredWorse(int candidate, int current, long block, double link) {
        return isFresh(candidate, block, link) && isFresh(current, block, link)
                && goodput[candidate] < goodput[current];
    }

    /**
     * Whether holding {@code rung} was measured recently on a link like this one to deliver
     * less than {@code bytesPerSecond}.
     */
    boolean measuredBelow(int rung, double bytesPerSecond, long block, double link) {
        return isFresh(rung, block, link) && goodput[rung] < bytesPerSecond;
    }

    /** The block at which {@code rung} was last measured; far in the past if never. */
    long measuredAt(int rung) {
        return measuredAt[rung];
    }

    /**
     * Sets how long {@code rung}'s sample stays valid: one that refuted what holding the rung
     * was expected to deliver, twice as long as the last verdict, up to {@value #LONGEST_VERDICT}
     * blocks, and where holding it meant compressing more than the choice it was weighed
     * against, on a link faster than it was measured on too (compressing more pays less the
     * faster the link); one that did not, {@value #FRESH_BLOCKS}. A controller that holds off
     * what its model proposes while a sample refutes it then tries it again the less often the
     * more often it was refuted, each try costing what the refuted choice costs while it is
     * measured.
     */
    void keepVerdict(int rung, boolean refuted, boolean compressesMore) {
        freshFor[rung] = refuted ? Math.min(2 * freshFor[rung], LONGEST_VERDICT) : FRESH_BLOCKS;
        keptOnFasterLink[rung] = refuted && compressesMore;
    }

    /** Drops every measurement: the data changed, so every rung's goodput did. */
    void forget() {
        Arrays.fill(freshFor, FRESH_BLOCKS);
        Arrays.fill(keptOnFasterLink, false);
        Arrays.fill(goodput, Double.NaN);
        Arrays.fill(measuredAt, Long.MIN_VALUE / 2);
        Arrays.fill(linkAt, Double.NaN);
        runRung = -1;
    }

    /**
     * Whether holding {@code rung} has been measured within the last {@value #FRESH_BLOCKS}
     * blocks on a link like this one (or within its verdict's span, on a link like it or, for
     * some verdicts, faster: see keepVerdict).
     */
    boolean isFresh(int rung, long block, double link) {
        if (Double.isNaN(goodput[rung]) || block - measuredAt[rung] > freshFor[rung]) {
            return false;
        }
        if (Double.isNaN(link) || Double.isNaN(linkAt[rung])) {
            return Double.isNaN(link) && Double.isNaN(linkAt[rung]);
        }
        double drift = link / linkAt[rung];
        return (drift <= LINK_DRIFT || keptOnFasterLink[rung]) && drift >= 1 / LINK_DRIFT;
    }

    private void startRun(Observation o, int held) {
        runRung = held;
        runBlocks = 0;
        runStartNanos = o.nanoTime();
        runStartDrained = o.drainedBytes();
        runInput = 0;
        runWire = 0;
    }
}
