package org.adaptivecompress.control.model;

import java.util.List;
import java.util.Objects;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;

/**
 * The default controller: a small explicit model of the pipeline, and named policies asked in
 * one order.
 *
 * <p><b>Estimators</b>, updated with every observation:
 * <ul>
 *   <li>{@link LinkEstimate}: the link's rate, measured between moments the sink was full (so
 *       the kernel's socket buffer, which takes megabytes at once and then stalls the writer,
 *       does not fool it), or a lower bound while the link takes everything the stream produces;
 *   <li>{@link RungModel}: each rung's compression speed and ratio per kind of data, measured
 *       or predicted from the ladder's priors; {@link WriterCost}: the writer's own time per byte;
 *   <li>{@link Forecast}: from them, each rung's goodput, {@code min(writer speed, link x ratio)},
 *       and the rungs' ranking under the stream's {@link Objective}: by goodput (time); by
 *       goodput among the rungs whose compression fits a CPU budget at the rate they deliver;
 *       or by cost per input byte among the rungs that reach a rate floor.
 * </ul>
 *
 * <p><b>Policies</b>, asked in this order; the first that decides wins:
 * <ol>
 *   <li>{@link StartupPolicy}: the link has not shown its rate: hold the start-up rung;
 *   <li>{@link StepPolicy}: the link dropped or rose sharply: the best rung for it, at once; or
 *       it outran the stream: a faster rung;
 *   <li>{@link IncompressiblePolicy}: the data does not shrink: keep the rung, blocks go raw;
 *   <li>{@link ProbePolicy}: now and then, one block at a neighbour not measured on this data;
 *   <li>{@link SwitchPolicy}: the rung forecast to deliver the most (with hysteresis), a mix of
 *       two neighbours where it beats both, or faster rungs while the link outruns the stream.
 * </ol>
 * Each decision names its {@link Reason} and carries the link rate and goodput it assumed, which a
 * {@link org.adaptivecompress.control.DecisionListener} sees.
 *
 * <p>It also decides the pipeline's side questions: raw blocks may be written by the writer
 * itself (the meter times them too); incompressible data is retried every block while trying
 * costs no time; queued frames are compressed again at the new rung when the link drops and the
 * writer has time for it; in a stream with histories, blocks are lent them, and histories are
 * primed, only while the writer has time to spare; and blocks double in length, up to the
 * stream's longest, while the link bounds the stream.
 */
public final class ModelController implements LevelController {

    /** Trying a codec on incompressible data costs no time when its writer outruns the link this many times over. */
    static final double FREE_TRY = 2;
    /** Queued frames are compressed again only if the writer outruns the link this much at the new rung ... */
    static final double RECOMPRESS_HEADROOM = 1.5;
    /** ... and the new rung shrinks them by this factor more: less is not worth the writer's time. */
    static final double RECOMPRESS_GAIN = 1.1;
    /** Histories are lent only if the writer outruns the link this many times over: they cost some of its speed ... */
    static final double LEND_HEADROOM = 1.5;
    /** ... and primed only if it does this many times: a prime costs about compressing what it loads. */
    static final double PRIME_HEADROOM = 2;

    private Objective objective = Objective.time();
    private LinkEstimate link;
    private RungModel rungs;
    private Forecast forecast;
    private WriterCost writer;
    private SwitchPolicy switching;
    private List<Policy> policies;
    private int home;
    private boolean linkBound;
    private Reason lastReason;
    private int lastRung;
    private boolean lastIncompressible;
    /** The length {@link #blockLength} last answered, 0 before it was asked. */
    private int blockLength;
    /** Input bytes of the blocks decided on, and when the first was seen: how far a deadline has run. */
    private long bytesSoFar;
    private long startNanos;

    /** Any objective: the forecast ranks rungs by it (see {@link Forecast#best}). */
    @Override
    public void objective(Objective objective) {
        Objects.requireNonNull(objective, "objective is null");
        if (objective.hasDeadline() && objective.expectedBytes() < 0) {
            throw new IllegalArgumentException("objective '" + objective + "' has a deadline, which needs the"
                    + " transfer's length (Objective.forLength): only a transfer of known length can have one");
        }
        this.objective = objective;
    }

    @Override
    public int initialRung(Ladder ladder) {
        link = new LinkEstimate();
        rungs = new RungModel(ladder);
        writer = new WriterCost();
        forecast = new Forecast(rungs, writer, objective);
        switching = new SwitchPolicy();
        policies = List.of(new StartupPolicy(), new StepPolicy(), new IncompressiblePolicy(), new ProbePolicy(),
                switching);
        home = StartupPolicy.startRung(ladder);
        return home;
    }

    @Override
    public Decision decide(Observation o) {
        if (link == null) {
            throw new IllegalStateException("initialRung was not called");
        }
        link.observe(o);
        rungs.learn(o);
        writer.learn(o);
        if (bytesSoFar == 0) {
            startNanos = o.nanoTime();
        }
        bytesSoFar += o.uncompressedLength();
        forecast.progress(bytesSoFar, o.nanoTime() - startNanos);
        forecast.spend(blockCpuNanos(o), o.nanoTime());
        linkBound = o.writerWaitNanos() > 0 && link.state() == LinkEstimate.State.MEASURED;
        lastIncompressible = o.incompressible();
        Situation s = new Situation(o, Math.min(home, o.topRung()), link, rungs, forecast);
        for (Policy p : policies) {
            Decision d = p.decide(s);
            if (d != null) {
                settle(d);
                lastReason = d.reason();
                lastRung = d.rung();
                return d;
            }
        }
        throw new AssertionError("the switch policy always decides");
    }

    /**
     * The CPU the block took on all workers: measured on the threads' clocks, else its codec
     * time (the simulator); the observation's figures are per worker.
     */
    private static long blockCpuNanos(Observation o) {
        long perWorker = o.cpuNanos() > 0 ? o.cpuNanos() : o.rung() > 0 && !o.skipped() ? o.compressNanos() : 0;
        return perWorker * Math.max(1, o.workers());
    }

    /** Moves the home rung where the decision settled; start-up, probes, incompressible data and kept rungs leave it. */
    private void settle(Decision d) {
        Reason r = d.reason();
        if (r == Reason.BEST || r == Reason.LINK_FASTER || r == Reason.LINK_DROPPED || r == Reason.LINK_ROSE) {
            home = d.rung();
        } else if (r == Reason.MIX) {
            home = switching.settled();
        }
    }

    /**
     * Lends histories while the link, not the writer, bounds the stream (or before the link
     * has shown its rate): a history buys ratio at some of the writer's speed (larger match
     * tables, a stream kept open), which pays only where the writer has time to spare. Never
     * to a probe's block: one block at a neighbour measures the rung, and that rung's history,
     * having missed the stream since its last blocks, would not repay starting again.
     */
    @Override
    public boolean lendsHistories() {
        return lastReason != Reason.PROBE
                && (link.state() == LinkEstimate.State.UNKNOWN || writerOutrunsLink(LEND_HEADROOM));
    }

    /**
     * Primes only while the writer waits for the link and outruns it by more: loading the
     * stream's last bytes (up to 2 MiB, docs/PERFORMANCE.md "What starting a history costs")
     * costs about compressing them again, which only a writer with time to spare absorbs. Not
     * after a block that did not shrink either: the tail is then mostly what does not shrink,
     * and on data that keeps turning incompressible each history started would load it again.
     * Otherwise a history starts from nothing, or goes on from its own window.
     */
    @Override
    public boolean primesHistories() {
        return linkBound && !lastIncompressible && writerOutrunsLink(PRIME_HEADROOM);
    }

    /** Whether the writer at the rung just decided delivers {@code headroom} times what the link takes. */
    private boolean writerOutrunsLink(double headroom) {
        return link.state() == LinkEstimate.State.MEASURED
                && forecast.writerSpeed(lastRung) >= headroom * link.rate() * rungs.ratio(lastRung);
    }

    /**
     * Doubles the blocks, up to {@code maxBlockSize}, while the link bounds the stream (its rate
     * is measured, which takes the sink held full, and the writer is forecast to outrun it at the
     * rung decided) and the last decision was made on that rate; {@code blockSize} at once
     * otherwise. Where the link is slower than the codec, a longer block is fewer bytes on the
     * wire, at about the same compression speed per byte, and its own latency is small beside
     * its time there; at start-up and when the link drops, rises or outruns the stream,
     * decisions must come often, and where the writer bounds the stream the link has no use for
     * a better ratio.
     */
    @Override
    public int blockLength(int blockSize, int maxBlockSize) {
        Reason r = lastReason;
        boolean onTheLink = r != Reason.STARTUP && r != Reason.LINK_DROPPED && r != Reason.LINK_ROSE
                && r != Reason.LINK_FASTER;
        boolean grow = r != null && onTheLink && writerOutrunsLink(1);
        blockLength = grow ? (int) Math.min(maxBlockSize, 2L * Math.max(blockLength, blockSize)) : blockSize;
        return blockLength;
    }

    /** True: the meter times the writer's own raw writes as it times the sender's. */
    @Override
    public boolean learnsFromDirectWrites() {
        return true;
    }

    /** False while trying the rung costs no time: the link, not the codec, bounds the stream. */
    @Override
    public boolean skipAfterIncompressible() {
        return link == null || link.state() != LinkEstimate.State.MEASURED
                || forecast.writerSpeed(home) < FREE_TRY * link.rate();
    }

    @Override
    public int recompressRung(int storedRung) {
        if (!linkBound || home <= storedRung) {
            return storedRung;
        }
        double rate = link.rate();
        boolean writerHasTime = forecast.writerSpeed(home) >= RECOMPRESS_HEADROOM * rate * rungs.ratio(home);
        boolean shrinks = rungs.ratio(home) >= RECOMPRESS_GAIN * rungs.ratio(storedRung);
        return writerHasTime && shrinks ? home : storedRung;
    }

    @Override
    public String toString() {
        return "model";
    }
}
