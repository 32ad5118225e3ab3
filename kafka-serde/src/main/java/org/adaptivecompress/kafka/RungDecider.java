package org.adaptivecompress.kafka;

import java.util.concurrent.locks.ReentrantLock;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rung decision one serializer's threads share. Each framed record is recorded; after
 * {@code observationRecords} records or {@code observationBytes} frame bytes (whichever first)
 * the thread that crosses the line runs the core {@link LevelController} on one
 * {@link Observation}: those records are its block and the producer's in-flight bytes, while
 * they form a {@linkplain StandingBacklog standing backlog}, are its FIFO. The rung is read
 * without locking; the decision runs under a lock that a busy thread skips rather than waits
 * for. Also keeps the statistics.
 *
 * <p>While the backlog stands, the time between two decisions not spent compressing is reported
 * as the writer's wait: the producer blocks {@code send()} while its buffer memory is full, and
 * that wait is the link's, not the application's work. Otherwise that time is the application's
 * own, which the controller weighs against each rung's codec.
 */
final class RungDecider {

    /** Debug: each change of rung, with the decision's reason. */
    private static final Logger LOG = LoggerFactory.getLogger(RungDecider.class);

    private final Ladder ladder;
    private final LevelController controller;
    private final DecisionListener listener;
    private final InFlightGauge gauge;
    private final int observationRecords;
    private final int observationBytes;
    private final ReentrantLock decisionLock = new ReentrantLock();
    private final StandingBacklog standing;

    private volatile int rung;

    private final Object statsLock = new Object();
    private final long[] records;
    private final long[] bytesIn;
    private final long[] bytesOut;
    private long incompressible;
    private long decisions;
    private long windowRecords;
    private long windowIn;
    private long windowOut;
    private long windowNanos;
    private boolean windowIncompressible;
    /** The standing backlog the controller saw at the last decision. */
    private long fifoAtLastDecision;
    /** All the producer's in-flight bytes at the last decision, standing or not. */
    private long inFlightAtLastDecision;
    /** When the last decision ran; {@link Long#MIN_VALUE} before the first. */
    private long lastDecisionNanos = Long.MIN_VALUE;

    /**
     * @param controller the controller, or {@code null} to stay at {@code fixedRung}
     * @param listener told every decision of the controller, on the thread that runs it
     * @param gauge the producer's in-flight bytes, {@code null} exactly when controller is
     * @param lingerMillis the producer's {@code linger.ms}, which its batches wait by design
     */
    RungDecider(Ladder ladder, LevelController controller, DecisionListener listener, InFlightGauge gauge,
            int fixedRung, int observationRecords, int observationBytes, long lingerMillis) {
        this.standing = new StandingBacklog(lingerMillis);
        this.ladder = ladder;
        this.controller = controller;
        this.listener = listener;
        this.gauge = gauge;
        this.observationRecords = observationRecords;
        this.observationBytes = observationBytes;
        this.records = new long[ladder.size()];
        this.bytesIn = new long[ladder.size()];
        this.bytesOut = new long[ladder.size()];
        this.rung = controller == null ? Math.min(fixedRung, ladder.top()) : checked(controller.initialRung(ladder));
    }

    int rung() {
        return rung;
    }

    /** Records one framed value; may run a decision on the calling thread. */
    void recorded(int storedRung, boolean wasIncompressible, int in, int out, long nanos) {
        boolean due;
        synchronized (statsLock) {
            records[storedRung]++;
            bytesIn[storedRung] += in;
            bytesOut[storedRung] += out;
            if (wasIncompressible) {
                incompressible++;
                windowIncompressible = true;
            }
            windowRecords++;
            windowIn += in;
            windowOut += out;
            windowNanos += nanos;
            due = controller != null && (windowRecords >= observationRecords || windowOut >= observationBytes);
        }
        if (due && decisionLock.tryLock()) {
            try {
                decide();
            } finally {
                decisionLock.unlock();
            }
        }
    }

    private void decide() {
        long drained = gauge.acknowledgedBytes();
        long now = System.nanoTime();
        long serialized = gauge.serializedBytes();
        long inFlight = gauge.bytes();
        Observation o;
        synchronized (statsLock) {
            if (windowRecords < observationRecords && windowOut < observationBytes) {
                return; // another thread decided meanwhile
            }
            long fifoNow = standing.observe(serialized, drained, inFlight, now);
            long elapsed = lastDecisionNanos == Long.MIN_VALUE ? 0 : now - lastDecisionNanos;
            o = Observation.builder()
                    .blockNumber(decisions)
                    .rung(rung)
                    .topRung(ladder.top())
                    .fifo(fifoAtLastDecision, fifoNow)
                    .block((int) Math.min(Integer.MAX_VALUE, windowIn), (int) Math.min(Integer.MAX_VALUE, windowOut),
                            windowIncompressible)
                    .compressNanos(windowNanos)
                    .writerWaitNanos(fifoNow > 0 ? Math.max(0, elapsed - windowNanos) : 0)
                    .drainedBytes(drained)
                    .nanoTime(now)
                    .build();
            windowRecords = 0;
            windowIn = 0;
            windowOut = 0;
            windowNanos = 0;
            windowIncompressible = false;
            fifoAtLastDecision = fifoNow;
            inFlightAtLastDecision = inFlight;
            lastDecisionNanos = now;
            decisions++;
        }
        Decision d = controller.decide(o);
        int previous = rung;
        rung = checked(d.rung());
        if (rung != previous && LOG.isDebugEnabled()) {
            LOG.debug("decision {}: {} -> {}: {}", o.blockNumber(), ladder.rung(previous), ladder.rung(rung), d);
        }
        listener.decided(o, d);
    }

    SerializerStatistics statistics() {
        synchronized (statsLock) {
            return new SerializerStatistics(ladder, controller != null, rung, records, bytesIn, bytesOut,
                    incompressible, decisions, inFlightAtLastDecision);
        }
    }

    private int checked(int r) {
        if (r < 0 || r > ladder.top()) {
            throw new IllegalStateException(
                    "controller " + controller + " chose rung " + r + " outside the ladder [0, " + ladder.top() + "]");
        }
        return r;
    }
}
