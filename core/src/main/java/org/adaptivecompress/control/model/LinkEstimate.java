package org.adaptivecompress.control.model;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;
import org.adaptivecompress.control.LinkSample;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.internal.engine.SinkMeter;

/**
 * How fast the link is, from the drain of the FIFO and the sink, in one of three states:
 * <ul>
 *   <li>{@link State#MEASURED}: the link held the stream back, and its rate was measured over
 *       spans between moments the sink was full (see {@link LinkSample}), the newest of them
 *       covering at least {@value #WINDOW_MILLIS} ms and {@value #WINDOW_SPANS} spans;
 *   <li>{@link State#AT_LEAST}: since the sink was last full (or since the stream began), it
 *       took more than its buffer could have hidden without filling again: the link carried
 *       at least the rest, so it is at least that fast;
 *   <li>{@link State#UNKNOWN}: neither yet.
 * </ul>
 * A metered span or a stall in progress far slower than the rate measured is a drop
 * ({@link #droppedNow()}); a metered span far faster, or a lower bound above it, a rise. A pipeline
 * without a meter ({@link LinkSample#NONE}) counts the time between two observations with its FIFO
 * holding bytes at both as a span of the window, but no single such span is a drop or a rise:
 * what it drained comes in bursts (a Kafka broker's quota acknowledges a second's records at
 * once after holding them), so only the window's rate follows the link there.
 *
 * <p>Not thread-safe; owned by one controller.
 */
final class LinkEstimate {

    /** What the estimate knows. */
    enum State { UNKNOWN, MEASURED, AT_LEAST }

    /** The newest spans covering this long make the rate: many sink wake-ups on fast links ... */
    static final long WINDOW_MILLIS = 100;
    /**
     * ... and at least this many: a span ends where a write returned, which leaves the buffer
     * fuller or emptier by up to one write, so single spans on slow links are off by half;
     * over several the errors cancel, since each span starts where the last ended.
     */
    static final int WINDOW_SPANS = 4;
    /**
     * The least rate a window measures: a link that carried nothing in it is slower than any
     * codec, so the rung with the best ratio wins, as it would at any tiny rate.
     */
    static final double MIN_RATE = 1;
    /** Spans kept at most, however short. */
    private static final int MAX_SPANS = 64;
    /** A span this many times slower than the window is the link dropping, not one span's error ... */
    static final double DROP = 3;
    /** ... and one this many times faster, the link rising, if it spans at least half the usual bytes. */
    static final double JUMP = 3;
    /**
     * A measurement must span this long, and so must a drop, in one span or one stall: longer
     * than the scheduling hiccups of a busy machine (a descheduled receiver, a collection),
     * which on a fast link make a write stall for a fraction of a millisecond and a span look
     * ten times slower than the link.
     */
    static final long MIN_MEASURE_MILLIS = 20;
    /** A lower bound this many times above the rate measured is the link rising: a bound is never above the truth. */
    static final double RISE = 1.1;
    /** A stall counts as a drop only once it lasts this many times the spans' usual length. */
    static final double STALL_SPANS = 4;
    /**
     * A measured rate no span has confirmed for this many spans' usual length (and at least
     * {@value #MIN_STALE_MILLIS} ms) is stale: the stream produced less than the link took all
     * that time, which the link would also do if it had sped up, so the estimate becomes a lower
     * bound and the stream tries a faster rung to find out.
     */
    static final int STALE_SPANS = 10;
    static final long MIN_STALE_MILLIS = 500;
    /** A lower bound needs this much time since the sink was last full: a few blocks at the fastest rungs. */
    static final long LOWER_BOUND_MILLIS = 2;
    /**
     * Before the sink has shown its buffer, a new socket's ({@link SinkMeter#NEW_SOCKET_BUFFER_BYTES}):
     * of the bytes a new socket took without filling, at least half of all but this many crossed the link.
     */
    static final long FIRST_BUFFER_BYTES = SinkMeter.NEW_SOCKET_BUFFER_BYTES;
    /** ... and however it grew, no larger than Linux's largest default send buffer. */
    static final long MAX_HIDDEN_BYTES = 4 << 20;
    /**
     * Until the sink has taken this much, TCP's slow start may still be growing the buffer by
     * more than the link carries, so a full moment does not bound what the buffer takes next:
     * the largest buffer is assumed hidden, as before the first full moment.
     */
    static final long GROWING_BYTES = 2 * MAX_HIDDEN_BYTES;
    /**
     * A lower bound is first taken when the bytes since the last full moment reach this many
     * times what the buffer may have hidden: the bound is then at least half the rate they came
     * at ...
     */
    static final int FIRST_BOUND_MULTIPLE = 2;
    /** ... and again each time they have grown by this factor, each bound tighter than the last. */
    static final double NEXT_BOUND_GROWTH = 1.5;

    private final ArrayDeque<long[]> spans = new ArrayDeque<>();
    private State state = State.UNKNOWN;
    private double rate = Double.NaN;
    /** The bytes and length of a span in the window; 0 before any. */
    private double spanBytesAverage;
    private double spanNanosAverage;
    /** Since the sink was last full, or since the stream began if it never was. */
    private long freeBytes;
    private long freeNanos;
    private boolean freeSinceFull;
    /** The bytes since the last full moment at which the next lower bound is taken. */
    private double nextBoundAt;
    private boolean dropped;
    private boolean rose;
    private boolean bounded;
    private boolean proven;
    /** Bytes the sink took since the stream began. */
    private long takenTotal;
    private long lastNanoTime = Long.MIN_VALUE;
    /** When the last span ended, or the estimate was last made stale. */
    private long lastSpanAt;
    private long lastDrained;
    private long lastFifo;

    /** Takes in what the link did since the previous observation. */
    void observe(Observation o) {
        dropped = false;
        rose = false;
        bounded = false;
        long elapsed = lastNanoTime == Long.MIN_VALUE ? 0 : Math.max(0, o.nanoTime() - lastNanoTime);
        long drained = o.drainedBytes() - lastDrained;
        boolean fifoHeld = lastFifo > 0 && o.fifoBytesAtBlockStart() > 0 && o.fifoBytes() > 0;
        lastNanoTime = o.nanoTime();
        lastDrained = o.drainedBytes();
        lastFifo = o.fifoBytes();
        LinkSample s = o.link();
        takenTotal += s.metered() ? s.writtenBytes() : Math.max(0, drained);
        boolean spanNow = s.metered() ? s.spanEnded() : elapsed > 0 && fifoHeld;
        if (state == State.MEASURED && !spanNow && !s.stalled()
                && o.nanoTime() - lastSpanAt > Math.max(MIN_STALE_MILLIS * 1_000_000, STALE_SPANS * spanNanosAverage)) {
            state = State.AT_LEAST; // stale: what was measured is kept as the bound to search up from
            spans.clear();
            bounded = true;
            lastSpanAt = o.nanoTime();
        }
        if (s.metered()) {
            if (s.spanEnded()) {
                if (s.fullSpanNanos() > s.lastSpanNanos()) {
                    span(s.fullSpanBytes() - s.lastSpanBytes(), s.fullSpanNanos() - s.lastSpanNanos(), true);
                }
                span(s.lastSpanBytes(), s.lastSpanNanos(), true);
                lastSpanAt = o.nanoTime();
            } else if (s.stalled()) {
                stall(s.openSpanBytes(), s.openSpanNanos());
            } else {
                free(s.writtenBytes(), elapsed);
            }
        } else if (elapsed > 0) {
            if (fifoHeld) {
                span(drained, elapsed, false);
                lastSpanAt = o.nanoTime();
            } else {
                free(drained, elapsed);
            }
        }
    }

    State state() {
        return state;
    }

    /** The link's rate in bytes per second: measured, or the lower bound; NaN while unknown. */
    double rate() {
        return rate;
    }

    /** Whether this observation showed the link far slower than it was measured. */
    boolean droppedNow() {
        return dropped;
    }

    /** Whether this observation showed the link far faster than it was measured. */
    boolean roseNow() {
        return rose;
    }

    /** Whether this observation gave a new lower bound on the link's rate. */
    boolean boundedNow() {
        return bounded;
    }

    /**
     * Whether the sink has taken, since it was last full, twice what any buffer could hide: the
     * link then carried at least as much as it was given, so a faster rung is worth trying.
     * Before that, a bound may be a buffer filling.
     */
    boolean outranStream() {
        return state == State.AT_LEAST && proven;
    }

    /**
     * A span between full moments: the link's rate over its length; {@code metered}: timed by the
     * sink's meter, exact enough alone to show a drop or a rise.
     */
    private void span(long bytes, long nanos, boolean metered) {
        if (nanos <= 0) {
            return;
        }
        double single = bytes * 1e9 / nanos;
        spans.addLast(new long[] {bytes, nanos});
        boolean slower = metered && state != State.UNKNOWN && single * DROP < rate && nanos >= MIN_MEASURE_MILLIS * 1_000_000
                && 2 * bytes >= spanBytesAverage;
        boolean faster = metered && state == State.MEASURED && single > JUMP * rate && 2 * bytes >= spanBytesAverage;
        dropped |= slower;
        rose |= faster;
        if (slower || faster) {
            spans.clear(); // older spans are the other link's
            spans.addLast(new long[] {bytes, nanos});
        }
        if (faster) {
            // What the sink had to send may have held this span back: the link is at least as fast.
            state = State.AT_LEAST;
            rate = single;
            bounded = true;
            full();
            spans.clear();
            return;
        }
        double windowed = windowRate();
        full();
        if (state != State.MEASURED && spanNanosAverage * spans.size() < MIN_MEASURE_MILLIS * 1_000_000) {
            return; // too little yet to replace what is known: a hiccup can stall one write
        }
        state = State.MEASURED;
        rate = windowed;
    }

    /** A write waiting for the link now: at most this fast since the last full moment. */
    private void stall(long openBytes, long openNanos) {
        full();
        if (state != State.MEASURED || openBytes < 0 || openNanos < STALL_SPANS * spanNanosAverage
                || openNanos < MIN_MEASURE_MILLIS * 1_000_000) {
            return;
        }
        double atMost = openBytes * 1e9 / Math.max(1, openNanos);
        if (atMost * DROP < rate) {
            dropped = true;
            spans.clear();
            rate = atMost;
        }
    }

    /** The sink is full now: what it takes from here on shows a lower bound. */
    private void full() {
        freeBytes = 0;
        freeNanos = 0;
        freeSinceFull = true;
        nextBoundAt = FIRST_BOUND_MULTIPLE * hidden();
    }

    /** The bytes the sink's buffer may have taken without the link carrying them. */
    private double hidden() {
        if (!freeSinceFull) {
            return FIRST_BUFFER_BYTES;
        }
        return takenTotal < GROWING_BYTES ? Math.max(spanBytesAverage, MAX_HIDDEN_BYTES) : spanBytesAverage;
    }

    /**
     * Bytes the sink took with no full moment: once more than its buffer can have hidden, a
     * lower bound on the link's rate. Since a full moment the buffer had at most a span's room
     * (a blocked writer wakes when a span's worth has drained), once slow start is over
     * ({@link #GROWING_BYTES}); since the stream began, a new socket's buffer, which grows by at
     * most what the link carries.
     */
    private void free(long bytes, long elapsed) {
        freeBytes += Math.max(0, bytes);
        freeNanos += elapsed;
        if (nextBoundAt == 0) {
            nextBoundAt = FIRST_BOUND_MULTIPLE * hidden();
        }
        if (freeNanos < LOWER_BOUND_MILLIS * 1_000_000 || freeBytes < nextBoundAt) {
            return;
        }
        nextBoundAt = NEXT_BOUND_GROWTH * freeBytes;
        proven = freeBytes >= 2 * (freeSinceFull ? hidden() : MAX_HIDDEN_BYTES);
        double crossed = freeSinceFull ? freeBytes - hidden()
                : Math.max((freeBytes - hidden()) / 2, freeBytes - MAX_HIDDEN_BYTES);
        double atLeast = crossed * 1e9 / freeNanos;
        if (state == State.MEASURED && atLeast < RISE * rate) {
            return; // the stream produced less than the link carries: nothing new about the link
        }
        if (state == State.MEASURED) {
            spans.clear(); // the link rose: the spans measured it slower
        }
        bounded = true;
        rate = state == State.AT_LEAST ? Math.max(rate, atLeast) : atLeast;
        state = State.AT_LEAST;
    }

    /** Bytes over time of the newest spans covering the window, older ones dropped; also their average span. */
    private double windowRate() {
        long bytes = 0;
        long nanos = 0;
        int kept = 0;
        Iterator<long[]> it = spans.descendingIterator();
        while (it.hasNext()) {
            long[] s = it.next();
            if ((nanos >= WINDOW_MILLIS * 1_000_000 && kept >= WINDOW_SPANS) || kept >= MAX_SPANS) {
                it.remove();
                continue;
            }
            bytes += s[0];
            nanos += s[1];
            kept++;
        }
        spanBytesAverage = (double) bytes / kept;
        spanNanosAverage = (double) nanos / kept;
        return Math.max(MIN_RATE, bytes * 1e9 / nanos);
    }

    @Override
    public String toString() {
        return state + (Double.isNaN(rate) ? "" : String.format(Locale.ROOT, " %.1f MB/s", rate / 1e6));
    }
}
