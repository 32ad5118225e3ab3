package org.adaptivecompress.control;

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
 *   <li><b>Start-up</b>: the first block goes out at rung {@value #INITIAL_RUNG} (a raw block
 *       would cost a slow link a block's worth of wire time, a fast codec costs a fast link a
 *       fraction of a millisecond). Until the link is first measured, the rung is the best
 *       ratio whose compression time the backlog already queued hides from the link, and never
 *       below rung {@value #INITIAL_RUNG}: a FIFO that runs dry says the link took what it was
 *       offered, not that it would take raw at the writer's pace.
 *   <li><b>Link rate</b> ({@link LinkEstimator}) is measured over windows while the sender
 *       was busy throughout (a backlog at both ends), or all but a twentieth of the time by the
 *       pipeline's count of the link's idle time; when the FIFO ran dry for longer the link is faster
 *       than what was fed to it, so the estimate doubles per such window until the link has
 *       been measured once, then grows by a quarter per window, as TCP's slow start and
 *       congestion avoidance do (never by more than a doubling, however fast a sink that
 *       absorbs a burst drained).
 *       An estimate only idle windows raised is a guess: on it the rung moves down one step
 *       per idle window, and the first busy window that measures less replaces it, as a loss
 *       cuts TCP's window. A backlog that builds for longer than a stall lowers the estimate
 *       at once, from its first block, and at once when the estimate is a guess beyond twice
 *       what the link was ever measured at; one held that long and then emptied within a
 *       block raises it at once. Raw blocks the writer wrote itself lower it as a backlog
 *       does, once their writes have taken longer than two stalls and the next such write
 *       agrees (one write alone may be held by the sink for a moment).
 *   <li><b>Rungs never measured</b> are extrapolated from the nearest measured codec (three
 *       times slower and 8 % smaller per rung up; rung 1 is guessed at 1 GB/s and a ratio of
 *       1.5), so the first decisions can jump straight to a plausible rung (see
 *       {@link RungFigures}).
 *   <li><b>Probing</b>: every {@value #PROBE_INTERVAL} blocks on one rung, a neighbour whose
 *       figures are older than {@value #STALE_AFTER} blocks is tried for one block, upwards
 *       unless even an optimistic ratio rules it out, so estimates stay fresh.
 *   <li><b>Histories</b> (when the stream keeps them, see
 *       {@link org.adaptivecompress.engine.CompressionOptions#history()}): a rung with a
 *       history has two kinds of block, warm ones that find themselves in it and cold ones of
 *       new data, which cost ten to a thousand times as much; its figures are the two kinds in
 *       the data's share of cold blocks (see {@link HistoryFigures}). Loading a history (the
 *       stream's last bytes, when a rung starts or has missed half its window) is a one-off
 *       cost, kept apart: a move that needs one must gain more than it over the blocks before
 *       the next probe, and the start-up climb counts it. A probe lasts
 *       {@value #HISTORY_PROBE_BLOCKS} blocks, goes past neighbours that are fresh or ruled
 *       out (never a rung with a history, whose speed is as uncertain as its ratio) to the
 *       nearest stale rung, comes {@value #HISTORY_PROBE_INTERVAL} blocks after the last
 *       probe rather than {@value #PROBE_INTERVAL} after the last move, and waits while the
 *       histories it would disturb cost more than a {@value #PRIME_BUDGET}th of the time since
 *       the last probe. A guessed link grows to at most
 *       {@value LinkEstimator#GUESS_HEADROOM} times what an idle window drained (see
 *       {@link LinkEstimator#learn}). On a link that stays past
 *       {@value #LINK_PAST_CODECS} times the fastest codec's speed, histories are withheld and
 *       all of this gives way to the rules without them (see decideLending); so they are on
 *       data that does not find itself in them, tried again now and then (see
 *       {@link RepeatGate}).
 *   <li><b>Data changes</b>: a ratio sample far outside noise from its rung's average means new
 *       data; the other rungs' ratios are then forgotten and extrapolated from the fresh one
 *       until measured, because a pessimistic figure left over from random data would never
 *       be corrected (the rung would never be tried again).
 *   <li><b>Hysteresis</b>: the rung changes only for a predicted gain of
 *       {@value #HYSTERESIS_PERCENT} % or more over the rung it holds (a probe does not count as
 *       holding), so noise does not make it flap; a move whose new rung settles below the one
 *       left behind is undone without hysteresis.
 *   <li><b>Measured goodput</b> has the last word on moves up the ladder: a rung that,
 *       held for a while, delivered less than the rung held now is not moved to while both
 *       measurements are fresh (see {@link GoodputMeter}), because the model assumes the link
 *       does not slow when the compressor works, which is false when the link's other end
 *       shares the cores.
 *   <li><b>Dithering</b>: when one rung leaves the link idle and its neighbour leaves the
 *       compressor idle, blocks alternate between them in the proportion that keeps both busy,
 *       which beats either rung alone (compression of one block overlaps sending of another).
 *       On a link fast enough that sending itself takes a share of the cores, or where the
 *       dither measured less than the rung alone is predicted to deliver (see
 *       {@link #ditherConfirmed}), that overlap is measured before it is trusted: the rung is
 *       held alone until its goodput is known, and dithering stops while it measures less.
 *       A dither refuted so is tried again after twice as many blocks as the last time, and
 *       one with a rung that compresses more not for a faster link. Raw mixes nothing in on a
 *       guessed link (see {@link #dither}).
 *   <li><b>A backlog is spent on ratio</b>: while the FIFO holds more than the link needs
 *       for a stall, a block may go to a better-ratio rung that compresses slower than the link
 *       takes its output, as long as the FIFO, drained meanwhile at the link's rate, still
 *       holds a stall's worth after it (see {@link #rungTheBacklogAffords}): the link is busy
 *       either way, and the FIFO's depth, read block by block as AdOC reads it, corrects
 *       figures that flatter the rung.
 *   <li><b>Queued frames</b> below the rung held are compressed again before they are sent,
 *       at the best rung up to the one held that keeps well ahead of the link, so the writer
 *       has the time, and shrinks them by a tenth or more (see {@link #recompressRung}): after
 *       a link drops, what the FIFO queued for the faster link.
 *   <li><b>Incompressible data</b> drops to raw at once, and the engine backs off from
 *       trying, when compressing costs time. When it does not (the rung compresses at least
 *       {@value #HIDDEN_TRY_MARGIN} times as fast as the link sends raw bytes, so the link bounds
 *       the stream either way), the rung is kept and every block tried, so the first block that
 *       compresses again, text after a JPEG say, is compressed instead of going out raw until
 *       the backoff's next retry.
 * </ul>
 *
 * <p>One instance per stream; not thread-safe.
 */
public final class ThroughputController implements LevelController {

    static final int PROBE_INTERVAL = 8;
    /** With histories, blocks on one rung between probes, and blocks a probe lasts (see nextRung). */
    static final int HISTORY_PROBE_INTERVAL = 64;
    static final int HISTORY_PROBE_BLOCKS = 4;
    /** With histories, a probe that costs loads waits this many times their cost after the last (see probeWithinBudget). */
    static final int PRIME_BUDGET = 16;
    static final int INITIAL_RUNG = 2;
    static final int STALE_AFTER = 24;
    static final int HYSTERESIS_PERCENT = 8;

    private static final double HYSTERESIS = 1 + HYSTERESIS_PERCENT / 100.0;
    static final double STEP_SLOWER = 3.0;
    static final double STEP_SMALLER = 1.08;
    /** Histories are withheld on a link this many times faster than the fastest codec (see decideLending). */
    static final double LINK_PAST_CODECS = 2;
    /** Blocks in a row on the other side of that mark that switch lending (see decideLending). */
    static final int LENDING_SWITCH_BLOCKS = 64;
    /**
     * A backlog past which a growing FIFO is fed only rungs whose compression it hides (see
     * rungTheBacklogHides). The stream's default FIFO holds no more, so there its capacity
     * bounds a flood by itself; the guard acts for streams given a larger FIFO.
     */
    static final int FLOOD_BACKLOG = 1 << 20;
    private static final double PLAUSIBLE_PROBE = 0.7;
    private static final double INCOMPRESSIBLE = 32.0 / 31;
    private static final double MIN_DITHER_GAIN = 1.05;
    /** How many times faster than the link sends raw bytes a rung must compress for trying it on incompressible data to cost no time. */
    static final double HIDDEN_TRY_MARGIN = 2.0;
    /** How many times as fast as the link takes its output the rung held must compress to compress queued frames again; see {@link #recompressRung}. */
    static final double RECOMPRESS_HEADROOM = 1.5;
    /** How much better than a queued frame's ratio the rung held's must be to compress it again. */
    static final double RECOMPRESS_GAIN = 1.1;
    /** How long a backlog must have lasted before queued frames are compressed again: twice a sender's stall. */
    static final int RECOMPRESS_BACKLOG_MILLIS = 2 * LinkEstimator.STALL_MILLIS;
    /**
     * How much better (percent) a rung's ratio must be for a backlog to pay for it. At 5 %,
     * noisy figures on slow links, where the top rungs differ by a few percent, had blocks
     * swing between them with the FIFO's depth.
     */
    static final int BACKLOG_SPEND_GAIN_PERCENT = 10;
    /**
     * How many times as long as the link takes a block's frame a rung the backlog pays for may
     * take to compress it (see rungTheBacklogAffords).
     */
    static final double BACKLOG_SPEND_SLOWDOWN = 2;
    /** {@link #BACKLOG_SPEND_GAIN_PERCENT} as a factor. */
    private static final double BACKLOG_SPEND_GAIN = 1 + BACKLOG_SPEND_GAIN_PERCENT / 100.0;

    /** Each rung's speed and ratio measured without a history. */
    private final RungFigures figures = new RungFigures();
    private final LinkEstimator link = new LinkEstimator();
    private final GoodputMeter goodput = new GoodputMeter();
    /**
     * Goodput of runs at each held rung alone (key {@code r}) and dithered with a neighbour
     * (key {@code rungs + r}), to confirm a dither on a link that costs the cores (see
     * {@link #ditherConfirmed}). Apart from {@link #goodput}, which counts both as the held rung.
     */
    private final GoodputMeter ditherGoodput = new GoodputMeter();
    /** The last decision mixed the held rung with a neighbour. */
    private boolean dithering;
    /** The writer's work per input byte outside the codec. */
    private final WriterOverhead overhead = new WriterOverhead();
    private long blocks;
    /** The idle window in which the controller last stepped down on a guessed link (see stepDownOnGuess). */
    private long guessedStepWindow = -1;
    /** Blocks since the held rung (the one dithering and probes return to) last changed. */
    private int sinceChange;
    /** Blocks since the last probe began. */
    private int sinceProbe;
    /** When the last probe that cost loads (or, before the first, the stream) began; see probeWithinBudget. */
    private long lastLoadingProbeNanos = -1;
    private int probedFrom = -1;
    /** With histories: blocks the probe under way has left. */
    private int probeBlocksLeft;
    /** The figures of rungs that keep a history, once some block started one. */
    private final HistoryFigures history = new HistoryFigures();
    /**
     * Some block started a history: the stream keeps them, and rungs with one are priced from
     * {@link #history}'s figures while they are lent (see historiesLent).
     */
    private boolean historiesSeen;
    /** Whether blocks are lent histories now, and blocks in a row that said otherwise (see decideLending). */
    private boolean lending = true;
    private int lendingContrary;
    /** Whether the data repeats beyond a block, so that histories pay (see RepeatGate). */
    private final RepeatGate repeats = new RepeatGate();
    private boolean probeUpNext;
    private int held;
    /** The rung held before the last move the model made, while that move can still be undone. */
    private int leftBehind = -1;
    private double ditherCredit;
    /** Whether the last dither's partner was above its home rung: the blocks its samples measured compressed more. */
    private boolean ditherUpward;
    /** The block at which the last dither sample judged (see judgeDitherSample) was taken. */
    private long judgedDitherSample = Long.MIN_VALUE;
    /** The last incompressible block was at a rung whose compression the link hides: keep trying. */
    private boolean tryingIsFree;

    /**
     * Starts two rungs up (zstd:1 on the default ladder), not raw: before anything is known a
     * raw block costs a slow link a whole block's worth of wire time, while a fast codec costs
     * a fast link a fraction of a millisecond.
     */
    @Override
    public int initialRung(int top) {
        size(top);
        held = Math.min(INITIAL_RUNG, top);
        return held;
    }

    @Override
    public int nextRung(Observation o) {
        size(o.topRung());
        blocks++;
        int current = o.rung();
        boolean lentWhenPlanned = lendsHistories();
        historiesSeen |= o.historyStarted();
        history.advance(current, o.uncompressedLength(), !o.historyWithheld());
        if (lastLoadingProbeNanos < 0) {
            lastLoadingProbeNanos = o.nanoTime();
        }
        link.learn(o, historiesLent());
        decideLending();
        boolean lentOne = !o.historyWithheld() && history.keepsHistory(current);
        repeats.observe(lentWhenPlanned && o.uncompressedLength() > 0, lentOne, lentOne && HistoryFigures.warm(o));
        overhead.learn(o);
        goodput.observe(o, held, blocks, link.measured());
        ditherGoodput.observe(o, dithering ? ditherKey(held) : held, blocks, link.measured());
        dithering = false;
        if (!link.known()) {
            link.boundStartup(o);
        }
        if (o.incompressible()) {
            // Raw at once, and raw is the rung held, unless the link hides the rung's compression
            // time or nothing bounds the link yet; then the rung is kept and the engine told not
            // to skip (see skipAfterIncompressible). The rungs' figures stay as they were: a pessimistic figure
            // is never corrected (the rung is never tried again), an optimistic one is, by the
            // next block tried there.
            probedFrom = -1;
            leftBehind = -1;
            tryingIsFree = held > 0 && (linkUnbounded() || compressionHidden(held));
            if (!tryingIsFree) {
                held = 0;
            }
            return held;
        }
        learnRung(current, o);
        if (!link.known()) {
            held = startupRung(o);
            return held;
        }
        if (probedFrom >= 0 && historiesLent() && current != probedFrom && --probeBlocksLeft > 0) {
            // With histories a probe is a run of blocks: its first may only load the rung's
            // history, and the next are what the rung's figures per kind of block learn from.
            return current;
        }
        // Hysteresis is measured from the rung held before a probe, not from the probed one:
        // otherwise a chain of probes could walk down a ladder of near-equal rungs.
        int home = probedFrom >= 0 ? probedFrom : held;
        probedFrom = -1;
        int best = best(o.topRung());
        // On a guessed link the move goes one step towards the best rung, justified by the
        // best rung's gain: the step's own figures may be a single sample (one slow first
        // block) and are what the step is there to refresh. If refreshed they settle below
        // the rung left behind, the step is undone below like any other move.
        int target = best < home && link.guessed() ? stepDownOnGuess(home) : best;
        boolean fifoOutranLink = link.takeFifoOutranLink();
        if (target != home && throughput(best) > throughput(home) * HYSTERESIS && !refusedByGoodput(target, home)
                && primePaysOff(target, best, home, o.uncompressedLength())) {
            leftBehind = home;
            home = target;
        } else if (leftBehind >= 0 && sinceChange < STALE_AFTER && throughput(leftBehind) > throughput(home)) {
            // The move was a mistake (the new rung's figures were stale and settled lower):
            // going back needs no hysteresis, or the controller would stay on the worse rung.
            home = leftBehind;
            leftBehind = -1;
        } else if (fifoOutranLink && home < o.topRung()) {
            // The FIFO fills faster than the (still settling) link estimate allows: climb a
            // rung as AdOC would, until the estimate catches up.
            home++;
        }
        sinceChange = home == held ? sinceChange + 1 : 0;
        sinceProbe++;
        held = home;
        int next = dither(home, o.topRung());
        // With histories, probes are counted from the last probe, not the last move: a stream
        // that moves between raw and LZ4 every few blocks (a fast link, neither with a history)
        // would otherwise never try again the rung whose history finds the repeats.
        boolean probeDue = historiesLent() ? sinceProbe >= HISTORY_PROBE_INTERVAL : sinceChange >= PROBE_INTERVAL;
        if (next == home && probeDue) {
            int probe = probe(home, o.topRung(), o.nanoTime());
            if (probe != home) {
                probedFrom = home;
                sinceChange = 0;
                sinceProbe = 0;
                if (probeCost(probe, home) > 0) {
                    lastLoadingProbeNanos = o.nanoTime();
                }
                next = probe;
                probeBlocksLeft = HISTORY_PROBE_BLOCKS;
            }
        }
        if (probedFrom < 0) {
            next = rungTheBacklogAffords(o, next);
        }
        return Math.max(next, rungTheBacklogHides(o));
    }

    /**
     * The best-ratio rung at or above {@code next} that the backlog already queued pays for:
     * while the FIFO holds more than the link needs for a stall, the link stays busy whatever
     * the writer does, so a block compressed slower than the link takes it costs no time, and
     * its better ratio saves the link bytes. A rung qualifies when it was measured lately, its
     * ratio beats the pick so far by {@value #BACKLOG_SPEND_GAIN_PERCENT} % or more, and the
     * FIFO, after the sender drains it at the link's rate while the block is compressed and
     * the block's frame joins it, still holds a stall's worth. One block at a time, so the
     * FIFO's depth corrects figures that flatter a rung as AdOC's rule would. This is what
     * the steady-state model cannot see: a backlog left by data that compressed fast (a
     * random stretch sent raw) carries zstd:1 through text after it, where the model, which
     * reckons the writer one block at a time, finds LZ4 as good.
     *
     * <p>The rung must also compress a block in at most {@value #BACKLOG_SPEND_SLOWDOWN} times
     * the time the link takes its frame. The backlog is reckoned at the link's current rate,
     * and a link that speeds up drains it at once and then waits for the block in progress: a
     * block far slower than its frame risks much to save little (zstd:15 on JSON at 10 Mbit/s,
     * 36 ms a block for a frame of 15 ms, saves a tenth of the bytes). Nor does the rule reach
     * the fast links, where sending takes a share of the cores the model does not see: a
     * stall's worth of a 10 Gbit/s link is more than the stream's default FIFO holds. And it
     * gives way while the rung held is stale: spent on zstd:15 through the step scenario's
     * 10 Mbit/s stretch, blocks left zstd:9, the rung held, unmeasured, so the raw and LZ4
     * frames queued at the drop were never compressed again, and runs took up to 1.6 s.
     */
    private int rungTheBacklogAffords(Observation o, int next) {
        int block = o.uncompressedLength();
        double floor = link.rate() * LinkEstimator.STALL_MILLIS / 1e3;
        if (historiesLent() || block <= 0 || o.fifoBytes() <= floor || !measuredLately(held)) {
            return next;
        }
        int pick = next;
        for (int r = next + 1; r <= o.topRung(); r++) {
            if (!measuredLately(r) || effectiveRatio(r) < effectiveRatio(pick) * BACKLOG_SPEND_GAIN) {
                continue;
            }
            double frame = block / effectiveRatio(r);
            double drained = link.rate() * block / pipelineSpeed(r);
            if (drained <= BACKLOG_SPEND_SLOWDOWN * frame && o.fifoBytes() + frame - drained >= floor) {
                pick = r;
            }
        }
        return pick;
    }

    /**
     * While only idle windows have estimated the link (no busy window has measured it yet) and
     * the FIFO holds more than {@value #FLOOD_BACKLOG} bytes and grew over the block: the
     * best-ratio rung whose compression of one block takes no longer than the sender needs to
     * send that backlog at the estimate; rung 0 otherwise. The block costs the link nothing
     * then, as in AdOC's rule, and it bounds what a rung chosen on the guess (raw on a link
     * that only looked fast) queues before a backlog of longer than a stall refutes it: at the
     * writer's raw pace that wait queued 3.4 MB, which the step scenario's link, dropping to
     * 10 Mbit/s, carried for 2.7 s. A one-block override, so a sender that lost its core for a
     * moment costs a few blocks. Not once the link has been measured: a guess beyond twice the
     * measurement is refuted without the stall allowance anyway, and on two shared cores the
     * blocks compressed during every sender stall of unthrottled loopback take CPU from the
     * sender.
     */
    private int rungTheBacklogHides(Observation o) {
        if (!link.guessed() || link.everMeasured() || o.fifoBytes() <= FLOOD_BACKLOG || o.fifoGrowth() <= 0) {
            return 0;
        }
        double budgetNanos = o.fifoBytes() * 1e9 / link.rate();
        int block = Math.max(1, o.uncompressedLength());
        int pick = 0;
        for (int r = 1; r <= o.topRung(); r++) {
            if (block * 1e9 / pipelineSpeed(r) <= budgetNanos && effectiveRatio(r) > effectiveRatio(pick)) {
                pick = r;
            }
        }
        return pick;
    }

    /**
     * On a link estimate that idle windows raised, a faster rung is tried one step at a time,
     * one step per idle window: the estimate only says the link took everything the slower rung
     * offered, and a jump to raw on it fills the FIFO at memory speed (megabytes in a few
     * milliseconds) before a busy window can measure the link, a backlog that then crosses the
     * link at its real rate, or at a lower one if the link slows meanwhile. One step lets the
     * next window measure the link under a load it may not take.
     */
    private int stepDownOnGuess(int home) {
        if (guessedStepWindow == link.idleWindowCount() || link.lastIdleWindowTopRung() > home) {
            // One step per idle window, and only on a window spent at the rung stepped from
            // or below: a window of slower rungs says nothing of whether the link takes this
            // rung's output, which only this rung's own window (busy or not) measures.
            return home;
        }
        guessedStepWindow = link.idleWindowCount();
        return home - 1;
    }

    /**
     * Whether moving from {@code home} to {@code target} (on the way to {@code best}) gains more
     * than loading the target's history costs, when its history would start afresh (it never
     * ran, or has missed more than half its window since its last block): the time
     * {@code best} saves per block over {@code home}, over the {@value #HISTORY_PROBE_INTERVAL}
     * blocks a held rung keeps before its next probe, must exceed the load's estimate (see
     * {@link HistoryFigures#primeNanos}). A load is a one-off cost: counted in the rung's speed
     * it made zstd:1 on repeated prose look ten times slower than it compresses (93 MB/s
     * against 1.2 GB/s), and raw, on a link guessed faster than that, looked better. Always true
     * without histories.
     */
    private boolean primePaysOff(int target, int best, int home, int blockLength) {
        double prime = startCost(target);
        if (prime == 0 || blockLength <= 0) {
            return true;
        }
        double savedPerBlock = blockLength * 1e9 / throughput(home) - blockLength * 1e9 / throughput(best);
        return savedPerBlock * HISTORY_PROBE_INTERVAL > prime;
    }

    /**
     * Whether a probe from {@code home} to {@code candidate} may be made now, with histories: a
     * probe of a rung whose history would start afresh pays for loading it (7 ms for zstd:1's
     * 2 MiB window, where a warm block of repeated prose takes 0.05 ms), and a probe away from a
     * rung with a history leaves that history without the probe's blocks, so when they repeat
     * it finds nothing (four cold blocks of 2-4 ms later, about the same cost). Such probes
     * wait until the time since the last such probe is {@value #PRIME_BUDGET} times those
     * costs (each the rung's last load, or an estimate of it). Every 64 blocks, probes from
     * zstd:1 to LZ4 on repeated prose cost about three times what compressing the 64 blocks
     * did. Free probes do not count: measured from the last probe of any kind, the probes
     * down to raw that came every 64 blocks from LZ4 on a 1 Gbit/s link kept the one up to
     * zstd:1's history (147 ms of budget for a 9 ms load) from ever being made, and repeated
     * prose went out at LZ4's ratio of 1.6 for a whole transfer.
     */
    private boolean probeWithinBudget(int candidate, int home, long now) {
        double cost = probeCost(candidate, home);
        return cost == 0 || now - lastLoadingProbeNanos >= PRIME_BUDGET * cost;
    }

    /** What a probe from {@code home} to {@code candidate} costs in loads; see probeWithinBudget. */
    private double probeCost(int candidate, int home) {
        double cost = startCost(candidate);
        if (history.keepsHistory(home) && !Double.isNaN(history.primeNanos(home))) {
            cost += history.primeNanos(home);
        }
        return cost;
    }

    /**
     * False while the rung held after incompressible data compresses fast enough that the link
     * hides trying it on every block: the data may turn compressible any block.
     */
    @Override
    public boolean skipAfterIncompressible() {
        return !tryingIsFree;
    }

    /**
     * True: raw blocks the writer wrote to the sink itself bound the link as a backlog does
     * (see {@link LinkEstimator}), so a link that drops while the stream sends raw is seen.
     */
    @Override
    public boolean learnsFromDirectWrites() {
        return true;
    }

    /**
     * The highest rung up to the one held at which compressing a frame still queued below it
     * (or the block just compressed, before it is queued) again pays: the rung compresses at
     * least {@value #RECOMPRESS_HEADROOM} times as fast as the link takes its output, its ratio
     * is at least {@value #RECOMPRESS_GAIN} times the frame's, and it was measured on the data
     * at hand lately; and a backlog has lasted at least {@value #RECOMPRESS_BACKLOG_MILLIS} ms.
     * {@code storedRung} if none does, and always before anything bounds the link, or with
     * histories.
     *
     * <p>While the rung held keeps ahead of the link, the link sets the stream's pace and the
     * writer waits for room part of the time: compressing a queued frame again takes time
     * the writer has, and each frame is ready again before the sender has sent the one before
     * it (one compressed is sent no faster than it is compressed). So any frame the better
     * ratio shrinks is worth it; the headroom covers estimates that flatter the rung, the
     * gain the noise in ratios. A rung that does not keep ahead (the raw blocks mixed into
     * LZ4 on a link LZ4 alone leaves idle, see dither) leaves the writer no time to spare.
     * A guessed link counts: idle windows raise a guess above what the link took, so it errs
     * fast, where the headroom is harder to meet; so does the fastest the link can be before a
     * window measures it (see startupRung), which stands in for the estimate until then: 2 MiB
     * of prose at 1 Mbit/s leave the writer before a window closes, and the zstd:1 frame it
     * compressed while it waited for the first write went out as it was, where xz:6, chosen
     * after that wait, makes it 18 % smaller. A backlog errs slow when it is a sender that
     * lost its core: one of 4 ms on JSON at 1000 Mbit/s, bounding the link at 15 MB/s (see
     * LinkEstimator), had LZ4 frames compressed again at zstd:1 while the sender
     * emptied the FIFO and waited. A link that really dropped holds its backlog far longer.
     *
     * <p>Not only the rung held: on a link that just dropped to 10 Mbit/s, the best rung to hold
     * for JSON may be zstd:15, whose blocks take about as long to compress as its frames take
     * to send, so it never keeps ahead. The raw and LZ4 frames queued for the faster link then
     * went out as they were, 0.8 s of the slow link in the step scenario, where zstd:9 (or
     * zstd:1) would have compressed them again in a few milliseconds. The backlog gives the
     * writer that time: with the FIFO full of them it waits for room whatever rung it holds,
     * and a rung that keeps ahead has each frame ready before the sender reaches it.
     *
     * <p>A move can land on a rung known only by extrapolation (three times slower per rung
     * up), and one block there measures it; the frames queued wait for that block. Taken on
     * trust after JSON's link dropped to 10 Mbit/s, zstd:15's extrapolated 13 MB/s (it
     * compresses JSON at 3.6) had 39 queued frames compressed again, 1.4 s of writer time
     * while the link, which took the frames faster than they came back, stood idle.
     */
    @Override
    public int recompressRung(int storedRung) {
        boolean backlogHeld = link.backlogHeldNanos() >= RECOMPRESS_BACKLOG_MILLIS * 1_000_000L;
        double linkAtMost = linkAtMost();
        if (held <= storedRung || Double.isNaN(linkAtMost) || historiesSeen || !backlogHeld) {
            return storedRung;
        }
        for (int r = held; r > storedRung; r--) {
            boolean writerHasTime = pipelineSpeed(r) >= RECOMPRESS_HEADROOM * linkAtMost * effectiveRatio(r);
            boolean frameShrinks = effectiveRatio(r) >= RECOMPRESS_GAIN * effectiveRatio(storedRung);
            if (measuredLately(r) && writerHasTime && frameShrinks) {
                return r;
            }
        }
        return storedRung;
    }

    /**
     * A frame compressed again is a sample of its rung's speed (see
     * {@link RungFigures#learnRecompressedSpeed}): once the frames queued turn out slower there
     * than the rung's figure said, {@link #recompressRung} sends the rest to a rung that keeps
     * ahead, or leaves them. On the demo's data at 20 Mbit/s, 19 frames went to xz:6 on the
     * figures of its first block (7 MB/s) and took 686 ms, 36 ms a frame, while the link, which
     * sends such a frame in 7 ms, stood mostly idle (docs/data/demo-recompress-xz-trace.txt).
     */
    @Override
    public void recompressed(int rung, int uncompressedLength, long compressNanos) {
        if (uncompressedLength > 0 && compressNanos > 0) {
            figures.learnRecompressedSpeed(rung, uncompressedLength * 1e9 / compressNanos);
        }
    }

    /**
     * Whether {@code rung}'s speed and ratio were measured on the data at hand, within the last
     * {@value #STALE_AFTER} blocks, rather than extrapolated from a neighbour or left over.
     */
    private boolean measuredLately(int rung) {
        return figures.measuredLately(rung, blocks);
    }

    /**
     * Nothing bounds the link yet: no sender write has finished and the stream is younger than
     * {@value LinkEstimator#STARTUP_SILENCE_MILLIS} ms. Trying costs little either way then: on a slow link
     * the link hides it, and on a fast one the first write ends the phase within a block or two.
     */
    private boolean linkUnbounded() {
        return !link.known() && Double.isNaN(link.startupAtMost());
    }

    /**
     * Whether compressing at {@code rung} takes less time than the link needs to send the block
     * raw, with a margin; before the link is measured, than the fastest link it can be.
     */
    private boolean compressionHidden(int rung) {
        double linkAtMost = linkAtMost();
        return !Double.isNaN(linkAtMost) && pipelineSpeed(rung) >= linkAtMost * HIDDEN_TRY_MARGIN;
    }

    /** The link's estimate; before one is measured, the fastest the link can be (see startupRung); NaN before either. */
    private double linkAtMost() {
        return link.known() ? link.rate() : link.startupAtMost();
    }

    /**
     * A move up the ladder that holding both rungs showed to deliver less. Only upward moves: the
     * model is wrong in that direction when compressing slows a link on the same cores, while a
     * move down after the link got faster must never wait for old samples to expire.
     */
    private boolean refusedByGoodput(int candidate, int current) {
        return candidate > current && goodput.measuredWorse(candidate, current, blocks, link.measured());
    }

    /**
     * Before the first link measurement, compression is free as long as the link is still busy
     * with what is queued: picks the rung with the best ratio whose compression of one block
     * takes no longer than the backlog needs to drain at the fastest rate the link can have
     * (what it drained since the stream started, plus one sender write in flight, over the
     * time). A slow link's backlog grows with every block, so the rung climbs within a few
     * blocks, faster the slower the link; a fast link never holds a backlog that long, so the
     * stream stays at rung {@value #INITIAL_RUNG}, a fraction of a millisecond a block, until
     * the first window measures the link. Not raw: at 1 Gbit/s a socket buffer and the first
     * writes take a writer's first blocks at once, and a raw writer then queues megabytes in
     * milliseconds, which a link that slows later carries for seconds.
     *
     * <p>A rung never measured must fit the budget {@value #STEP_SLOWER} times over: the flat
     * step it is guessed by errs fast at the top of the default ladder (zstd:15 compresses 2.2
     * times slower than guessed from zstd:1, 2.6 times from zstd:9; docs/LADDER.md), and xz's
     * first blocks in a JVM run cold. On JSON at 10 Mbit/s, xz:6, guessed at three times
     * zstd:15's 16 ms or so a block, fitted the budget in 9 of 42 traced transfers; its block took
     * 43-203 ms while the link idled, and those transfers took 0.31-0.51 s against 0.29-0.31 s
     * (docs/data/startup-guess-margin.txt). A rung measured is taken at its figure.
     */
    private int startupRung(Observation o) {
        if (Double.isNaN(link.startupAtMost())) {
            // No bound yet (see LinkEstimator.boundStartup). Climb as AdOC does while the FIFO grows
            // past a block.
            boolean growing = o.fifoGrowth() > 0 && o.fifoBytes() > o.uncompressedLength();
            return growing ? Math.min(o.rung() + 1, o.topRung()) : o.rung();
        }
        double budgetNanos = Math.min(o.fifoBytes() * 1e9 / link.startupAtMost(), link.silenceNanos());
        int block = Math.max(1, o.uncompressedLength());
        int pick = Math.min(INITIAL_RUNG, o.topRung());
        for (int r = pick + 1; r <= o.topRung(); r++) {
            // With histories, a rung whose history starts pays for loading it too: on a 10
            // Mbit/s link the climb otherwise reached xz, whose first block took 180 ms.
            double guessMargin = figures.seen(r) ? 1 : STEP_SLOWER;
            boolean fits = block * 1e9 * guessMargin / estimatedSpeed(r) + startCost(r) <= budgetNanos;
            if (fits && effectiveRatio(r) > effectiveRatio(pick)) {
                pick = r;
            }
        }
        return pick;
    }

    /** Whether the stream keeps histories and blocks are lent them now. */
    private boolean historiesLent() {
        return historiesSeen && lendsHistories();
    }

    /**
     * Withholds histories once the link has been faster than {@value #LINK_PAST_CODECS} times
     * the fastest codec compresses (LZ4 on the default ladder, measured without a history) for
     * {@value #LENDING_SWITCH_BLOCKS} blocks in a row, and lends them again once it has been
     * slower for as long. On such a link the stream sends raw, with LZ4 mixed in at most, and
     * histories only cost it: probes that load them, the guessed link's ceiling, which held
     * zstd:1 for the first 25-73 blocks of JSON at 10 Gbit/s, and a copy of every byte into the
     * stream's tail (1.03-1.59x the default's time at 10 Gbit/s and unthrottled;
     * docs/PERFORMANCE.md). Withheld, the stream runs the default path and keeps no tail. The
     * margin and the run are what keep repeated prose at 1 Gbit/s lent: there the guessed link
     * runs above twice LZ4's speed for up to 20 blocks at a time, and its history is what makes
     * zstd:1 beat LZ4 there by far; on JSON at 10 Gbit/s, 95 % of blocks see the link beyond
     * that mark.
     */
    private void decideLending() {
        if (!historiesSeen || !link.known()) {
            return;
        }
        double mark = LINK_PAST_CODECS * figures.fastestCodecSpeed();
        if (Double.isNaN(mark)) {
            return;
        }
        boolean contrary = lending == link.rate() > mark;
        lendingContrary = contrary ? lendingContrary + 1 : 0;
        if (lendingContrary >= LENDING_SWITCH_BLOCKS) {
            lending = !lending;
            lendingContrary = 0;
        }
    }

    /**
     * True unless the stream keeps histories and the link is too fast for them now (see
     * decideLending) or the data has not been finding itself in them (see {@link RepeatGate}):
     * blocks at a rung with a history are then compressed to decode alone.
     */
    @Override
    public boolean lendsHistories() {
        return lending && repeats.lends();
    }

    /** What moving to {@code rung} costs once: loading its history, if it keeps one that would start afresh. */
    private double startCost(int rung) {
        double prime = history.primeNanos(rung);
        return historiesLent() && history.stale(rung) && !Double.isNaN(prime) ? prime : 0;
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
        for (int other = home - 1; other <= home + 1; other += 2) {
            // On a guessed link a faster rung is only reached through stepDownOnGuess, and raw
            // mixes nothing in: a guess at raw says only that the link took what raw offered.
            // Unthrottled, LZ4 dithered in on guesses of 0.8-1.8 GB/s built backlogs that the
            // two cores drained slowly, and the model, reading them as a slow link, climbed to
            // LZ4 and zstd:1 for tens of milliseconds; raw held long enough measures the link
            // instead (LinkEstimator.measureLinkByRawSpan). Nor a rung whose history would
            // start afresh: its blocks, one in dozens, each paid a load (8 ms for zstd:1's
            // 2 MiB, where a warm block takes 0.05) and then left it.
            if (other < 0 || other > top || (other < home || home == 0) && link.guessed() || startCost(other) > 0) {
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
        if (partner < 0 || !ditherConfirmed(home, bestGain)) {
            ditherCredit = 0;
            return home;
        }
        dithering = true;
        ditherUpward = partner > home;
        ditherCredit += partnerShare;
        if (ditherCredit >= 1) {
            ditherCredit -= 1;
            return partner;
        }
        return home;
    }

    /**
     * Whether a dither around {@code home} that the model predicts to gain {@code gain} (a
     * factor) may go on. The model counts sending as free, yet the sender's per-byte work
     * (socket writes, and on loopback the receiver's) is about the writer's own: at the link's
     * rate it takes a share of a core, the writer's per-byte cost times the rate, and a
     * compressing writer takes that share from the link. Once the share exceeds the predicted
     * gain, the overlap the gain rests on may not exist, and dithering also makes the link
     * look slower than it is (it is measured while the writer compresses), which draws the
     * model further up. There the dither waits until holding {@code home} alone has measured
     * its goodput, and stops while dithering measured less; both measurements last
     * {@value GoodputMeter#FRESH_BLOCKS} blocks, so the comparison is made again as the data or
     * the cores change. On loopback, 250 MB of text at 1 Gbit/s took 0.87-1.75 s (7 of 26
     * transfers over 1.1 s) with the model trusted, 0.87-1.01 s with it checked.
     *
     * <p>The share is the writer's per-byte cost, which understates what sending costs where
     * the receiver shares the cores too (unthrottled loopback: the sender's and receiver's
     * kernel work is several times the writer's copy and checksum). So a dither that has
     * measured less than the model predicts for {@code home} alone, by more than the
     * hysteresis allows for noise, is checked whatever the share: the overlap its gain rests
     * on is not there. Unchecked, dithers made 83-96 % of JSON's moves from raw to LZ4
     * unthrottled, and stretches that mixed LZ4 in crossed at 0.9-1.3 GB/s where raw alone
     * crossed at 2.6-3.3 GB/s (docs/data/link-ab-dither-refuted.txt).
     */
    private boolean ditherConfirmed(int home, double gain) {
        judgeDitherSample(home);
        boolean sendingCheap = Double.isNaN(overhead.nanosPerByte())
                || link.rate() * overhead.nanosPerByte() / 1e9 < gain - 1;
        if (sendingCheap && !ditherFellShort(home)) {
            return true;
        }
        return ditherGoodput.isFresh(home, blocks, link.measured())
                && !ditherGoodput.measuredWorse(ditherKey(home), home, blocks, link.measured());
    }

    /**
     * Gives each new sample of the dither around {@code home} its span (see
     * {@link GoodputMeter#keepVerdict}): one that fell short of the model or measured below
     * {@code home} alone refuses the dither twice as long as the last did, and if its partner
     * compresses more than {@code home}, on a faster link too. Measuring it again means
     * dithering for a sample's
     * {@value GoodputMeter#MIN_MILLIS} ms at least; where the overlap is not there
     * (unthrottled loopback, where sending and receiving take both cores) such retries came
     * every {@value GoodputMeter#FRESH_BLOCKS} blocks, and whenever the link measured twice as
     * fast (unthrottled it swings from 0.3 to 5 GB/s), at a dozen to a hundred LZ4 blocks each
     * (docs/data/link-ab-dither-verdict.txt).
     */
    private void judgeDitherSample(int home) {
        int key = ditherKey(home);
        long sampledAt = ditherGoodput.measuredAt(key);
        if (sampledAt == judgedDitherSample || !ditherGoodput.isFresh(key, blocks, link.measured())) {
            return;
        }
        judgedDitherSample = sampledAt;
        ditherGoodput.keepVerdict(key, ditherFellShort(home)
                || ditherGoodput.measuredWorse(key, home, blocks, link.measured()), ditherUpward);
    }

    /** The dither around {@code home} measured lately below the model's figure for {@code home} alone, less the hysteresis. */
    private boolean ditherFellShort(int home) {
        return ditherGoodput.measuredBelow(ditherKey(home), throughput(home) / HYSTERESIS, blocks, link.measured());
    }

    private int ditherKey(int rung) {
        return figures.rungs() + rung;
    }

    /** The share of blocks at {@code b} (the rest at {@code a}) that makes compressing and sending take equal time. */
    private double mixShare(int a, int b) {
        double cpuA = 1 / pipelineSpeed(a);
        double cpuB = 1 / pipelineSpeed(b);
        double linkA = 1 / (link.rate() * effectiveRatio(a));
        double linkB = 1 / (link.rate() * effectiveRatio(b));
        double denominator = (linkB - linkA) - (cpuB - cpuA);
        return denominator == 0 ? -1 : (cpuA - linkA) / denominator;
    }

    private double mixedThroughput(int a, int b, double shareB) {
        double cpu = (1 - shareB) / pipelineSpeed(a) + shareB / pipelineSpeed(b);
        double wire = ((1 - shareB) / effectiveRatio(a) + shareB / effectiveRatio(b)) / link.rate();
        return 1 / Math.max(cpu, wire);
    }

    /** The predicted input bytes per second at {@code rung}. */
    double throughput(int rung) {
        return Math.min(pipelineSpeed(rung), link.rate() * effectiveRatio(rung));
    }

    /**
     * What a stale rung above {@code current} could deliver if the data now compresses there
     * at least as well as one step up from {@code current} predicts: its ratio is exactly what
     * a stale rung may have wrong (it may date from data that did not compress), while its
     * speed says what a probe would cost.
     */
    private double optimisticThroughput(int candidate, int current) {
        double ratio = Math.max(effectiveRatio(candidate), effectiveRatio(current) * STEP_SMALLER);
        return Math.min(pipelineSpeed(candidate), link.rate() * ratio);
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
    private int probe(int current, int top, long now) {
        probeUpNext = !probeUpNext;
        for (int i = 0; i < 2; i++) {
            int step = (i == 0) == probeUpNext ? 1 : -1;
            int candidate = current + step;
            // With histories, past neighbours that are fresh or ruled out to the nearest stale
            // rung: LZ4 and raw, measured as the stream mixes them, say nothing of a rung with
            // a history, and LZ4 ruled out above raw must not hide zstd:1's history behind it.
            while (historiesLent() && candidate >= 0 && candidate <= top
                    && (figures.age(candidate, blocks) < STALE_AFTER || ruledOut(candidate, current))) {
                candidate += step;
            }
            if (candidate < 0 || candidate > top || figures.age(candidate, blocks) < STALE_AFTER
                    || ruledOut(candidate, current) || !probeWithinBudget(candidate, current, now)) {
                continue;
            }
            return candidate;
        }
        return current;
    }

    /**
     * Whether the model rules out probing {@code candidate} above {@code current}: not even an
     * optimistic ratio would make it deliver near what {@code current} does. Never a rung with
     * a history, whose speed is as uncertain as its ratio (a warm history compresses repeated
     * prose thirty times as fast as the cold one that measured it at the stream's start). Nor
     * one whose speed is a single slow block's that replaced faster figures: traced at
     * 10 Gbit/s, an LZ4 probe that took 885 us where LZ4 blocks took 63 (the writer lost its
     * core) ruled LZ4 out for the 5,000 blocks left.
     */
    private boolean ruledOut(int candidate, int current) {
        return candidate > current && !keptByHistory(candidate) && !figures.slowedByOneBlock(candidate)
                && optimisticThroughput(candidate, current) < throughput(current) * PLAUSIBLE_PROBE;
    }

    /** Learns a block's speed and ratio: into its history's figures if it has one, else the rung's own. */
    private void learnRung(int rung, Observation o) {
        if (o.compressNanos() <= 0 || o.uncompressedLength() <= 0) {
            return;
        }
        if (!o.historyWithheld() && history.learn(rung, o)) {
            // The rung keeps a history: its figures are the mix of its warm and cold blocks.
            figures.measuredElsewhere(rung, blocks);
            return;
        }
        if (figures.learn(rung, o, blocks)) {
            // New data: what each rung delivered was measured on the old.
            goodput.forget();
            ditherGoodput.forget();
        }
    }

    /**
     * Input bytes per second the writing thread can feed the FIFO at {@code rung}: the codec's
     * time plus the per-byte work every block costs whatever its codec (the application filling
     * the block, framing, checksum, queueing). Negligible next to a codec, that work is what
     * bounds raw, whose codec time alone is a memory copy: without it the model would think raw
     * ten times faster than it is and dither a fast codec in on links raw alone saturates.
     */
    private double pipelineSpeed(int rung) {
        double perByte = overhead.nanosPerByte();
        return 1e9 / (1e9 / estimatedSpeed(rung) + (Double.isNaN(perByte) ? 0 : perByte));
    }

    /** Whether {@code rung}'s figures are {@link #history}'s: histories are lent, and it was not measured as a rung without one. */
    private boolean keptByHistory(int rung) {
        return historiesLent() && history.covers(rung, figures.seen(rung));
    }

    double estimatedSpeed(int rung) {
        double withHistory = keptByHistory(rung) ? history.speed(rung) : Double.NaN;
        return Double.isNaN(withHistory) ? figures.estimatedSpeed(rung) : withHistory;
    }

    double estimatedRatio(int rung) {
        double withHistory = keptByHistory(rung) ? history.ratio(rung) : Double.NaN;
        return Double.isNaN(withHistory) ? figures.estimatedRatio(rung) : withHistory;
    }

    private void size(int top) {
        if (figures.rungs() != top + 1) {
            figures.size(top + 1);
            history.size(top + 1);
            goodput.size(top + 1);
            ditherGoodput.size(2 * (top + 1));
        }
    }

    @Override
    public String toString() {
        return "throughput";
    }
}
