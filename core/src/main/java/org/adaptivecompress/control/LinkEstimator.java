package org.adaptivecompress.control;

/**
 * What {@link ThroughputController} knows of the link: an estimate of its rate in bytes per
 * second, learnt block by block from the FIFO and the sender's drained count, as TCP learns a
 * path's rate from its acknowledgements.
 *
 * <ul>
 *   <li><b>Windows</b>: the link is measured over windows of at least
 *       {@value #LINK_WINDOW_BYTES} bytes drained or {@value #LINK_WINDOW_MILLIS} ms. A window
 *       in which the sender was busy throughout measures the link, and so does one in which the
 *       pipeline says the link sat idle for want of bytes at most
 *       {@value #MEASURABLE_IDLE_SHARE} of the time ({@link Observation#linkIdleNanos()}), over
 *       the rest, unless the writer wrote raw blocks to the sink itself in it (those writes
 *       bound the link apart); one in which the FIFO ran dry for longer
 *       only says the link is faster than it was offered, and raises the estimate, doubling
 *       it per window until the link has been measured once, then by a quarter, as TCP's slow
 *       start and congestion avoidance do. An estimate only idle windows raised is a
 *       {@linkplain #guessed() guess}, which the first busy window that measures less replaces.
 *   <li><b>Bounds that act at once</b>: a backlog that builds, or stands in a full FIFO, for
 *       longer than a sender's stall ({@value #STALL_MILLIS} ms) lowers the estimate from its
 *       first block; raw blocks the writer wrote itself lower it as a backlog does, once the
 *       next such write agrees; a backlog held that long and then emptied within a block
 *       raises it.
 *   <li><b>Raw written directly</b>: raw blocks the writer wrote itself back to back for
 *       {@value #RAW_SPAN_MILLIS} ms, most of that time spent in the writes, measure the link
 *       as a busy window does (see measureLinkByRawSpan).
 *   <li><b>Start-up</b>: until the first window closes, the rate is unknown and only
 *       {@linkplain #startupAtMost() bounded from above} by what drained since the stream
 *       started.
 * </ul>
 *
 * <p>One per controller; not thread-safe.
 */
final class LinkEstimator {

    static final int LINK_WINDOW_BYTES = 256 * 1024;
    static final int LINK_WINDOW_MILLIS = 100;
    static final int LINK_WINDOW_GROWTH = 256 * 1024;
    /**
     * A sender (or the receiver at the link's other end) that loses its core for a time slice
     * stops the drained count as a slow link does; on a busy machine that lasts a few
     * milliseconds, so only a FIFO that fills for longer says the link slowed.
     */
    static final int STALL_MILLIS = 4;
    /** How long after the start no finished sender write bounds the link (see boundStartup). */
    static final int STARTUP_SILENCE_MILLIS = 2;
    /** How far above what an idle window drained a guess may run, with histories lent (see learn). */
    static final double GUESS_HEADROOM = 4;
    /**
     * How long raw blocks the writer wrote itself must have taken, one alone or several summed,
     * before they bound the link: twice a stall, because on unthrottled loopback a receiver
     * that loses its core holds one write for 4-6 ms, and each such write read as a link of
     * 23-64 MB/s sent the next 8-23 blocks at zstd:1 (see boundLinkByDirectWrites).
     */
    static final int DIRECT_WRITE_SPAN_MILLIS = 2 * STALL_MILLIS;
    /** How much faster than a bound from direct writes the next write may go and still confirm it. */
    static final double DIRECT_BOUND_CONFIRMATION = 2;
    /**
     * A write that took this long bounds the link without waiting for the next: longer than the
     * holds seen (4-10 ms), and a link slow enough to take that long for a block (10 Mbit/s: 105 ms
     * for 128 KiB) would cost a block's worth of it to wait.
     */
    static final int DIRECT_WRITE_ALONE_MILLIS = 4 * STALL_MILLIS;
    /** How long raw blocks the writer wrote itself back to back must last to measure the link (see measureLinkByRawSpan). */
    static final int RAW_SPAN_MILLIS = 50;
    /** The least share of such a span the writer must have spent writing for the link to have set its pace. */
    static final double RAW_SPAN_WRITE_SHARE = 0.5;
    private static final double IDLE_LINK_GROWTH = 2;
    private static final double IDLE_LINK_CREEP = 1.25;
    private static final int IDLE_WINDOWS_TO_SLOW_START = 4;
    /** The most a sender writes at once (AdaptiveOutputStream's FIFO writes 64 KiB chunks). */
    private static final int SENDER_WRITE = 64 * 1024;
    private static final double LINK_SLOWED = 0.8;
    /** How many earlier points of a backlog its bound is measured from (see boundLinkByBacklog). */
    private static final int BACKLOG_MARKS = 8;
    /** How far past the measured link a guess may run before a backlog refutes it without a stall allowance. */
    private static final double GUESS_BEYOND_MEASURED = 2;
    private static final double LINK_ALPHA = 0.6;
    /**
     * The most of a window the link may have sat idle (see {@link Observation#linkIdleNanos()})
     * for the window to measure it still, over the rest of its time.
     */
    static final double MEASURABLE_IDLE_SHARE = 0.05;
    private static final double MAX_LINK = 1e12;

    private double link = Double.NaN;
    /** The link rate measured over busy windows only, without the growth idle windows add. */
    private double measuredLink = Double.NaN;
    private boolean linkMeasured;
    /** The estimate was last raised by an idle window: a guess that the link is faster than it was offered. */
    private boolean linkGuessed;
    /** A backlog bound found the FIFO filling well faster than the link estimate allowed (see takeFifoOutranLink). */
    private boolean fifoOutrunsLink;
    private long startNanos = -1;
    private long startDrained;
    /** Until the link is measured: the fastest it can be, from what drained since the start; NaN before one write. */
    private double startupLinkAtMost = Double.NaN;
    /** While no write has finished: how long the link has been silent, which caps the start-up rung's block time. */
    private long silenceNanos = Long.MAX_VALUE;
    private long windowStartNanos = -1;
    private long windowStartDrained;
    /** When the current backlog's last bound was taken (-1: the FIFO ran dry at the last block), and the FIFO depth and estimate then. */
    private long backlogSinceNanos = -1;
    /** When the current unbroken backlog began; -1 while the FIFO is dry. */
    private long backlogBeganNanos = -1;
    /** The previous block's time and drained count. */
    private long previousNanos = -1;
    private long previousDrained;
    private long backlogSinceFifo;
    private double backlogStartLink;
    /** Where earlier bounds of the current backlog were measured from: any span of it bounds the link. */
    private final DrainMarks backlogMarks = new DrainMarks(BACKLOG_MARKS);
    /** A span of raw blocks the writer wrote itself back to back (see measureLinkByRawSpan): when it began (-1: none), its bytes and write time. */
    private long rawSpanStartNanos = -1;
    private long rawSpanBytes;
    private long rawSpanWriteNanos;
    /** The link rate the last such span measured; NaN if the last one did not (the writer, not the link, set its pace). */
    private double rawSpanPace = Double.NaN;
    /** Bytes the writer wrote to the sink itself, and the time that took, since they last bounded the link. */
    private long directBytes;
    private long directNanos;
    /** A bound from the writer's own writes that waits for the next write to agree (see boundLinkByDirectWrites). */
    private double unconfirmedDirectBound = Double.NaN;
    /** Bytes the writer wrote to the sink itself in the current link window, and the time that took. */
    private long windowDirectBytes;
    private long windowDirectNanos;
    /** The largest FIFO depth seen in the current link window. */
    private long windowPeakFifo;
    private boolean windowBusy;
    /** The link's idle time in the current window, and whether every block of it reported one. */
    private long windowLinkIdleNanos;
    private boolean windowLinkIdleKnown;
    /** Idle windows in a row, and in all. */
    private int idleWindows;
    private long idleWindowCount;
    /** The highest rung a block of the current link window was compressed at, and of the last idle window. */
    private int windowTopRung;
    private int lastIdleWindowTopRung = Integer.MAX_VALUE;

    /** The estimated rate in bytes per second; NaN until it is {@linkplain #known() known}. */
    double rate() {
        return link;
    }

    /** Whether the rate is known: a measuring window has closed since the stream started. */
    boolean known() {
        return !Double.isNaN(link);
    }

    /** The rate measured over busy windows only, without the growth idle windows add; NaN until one was. */
    double measured() {
        return measuredLink;
    }

    /** Whether the estimate was last raised by an idle window: the link took all it was offered, by an unknown margin. */
    boolean guessed() {
        return linkGuessed;
    }

    /** Whether a busy window has ever measured the link. */
    boolean everMeasured() {
        return linkMeasured;
    }

    /** Until the rate is known, the fastest the link can be (see boundStartup); NaN before anything bounds it. */
    double startupAtMost() {
        return startupLinkAtMost;
    }

    /** While no sender write has finished: how long the link has been silent; {@link Long#MAX_VALUE} after. */
    long silenceNanos() {
        return silenceNanos;
    }

    /** Idle windows so far: a count that moves once per window that raised the estimate. */
    long idleWindowCount() {
        return idleWindowCount;
    }

    /** The highest rung a block of the last idle window was compressed at; {@link Integer#MAX_VALUE} before one. */
    int lastIdleWindowTopRung() {
        return lastIdleWindowTopRung;
    }

    /**
     * Whether the last bound a backlog took (see boundLinkByBacklog) found the link below
     * {@value #LINK_SLOWED} of the estimate it started from: the FIFO fills faster than the
     * estimate allows. Clears the flag.
     */
    boolean takeFifoOutranLink() {
        boolean outran = fifoOutrunsLink;
        fifoOutrunsLink = false;
        return outran;
    }

    /** How long the FIFO has held an unbroken backlog, up to the last block; -1 while it is dry. */
    long backlogHeldNanos() {
        return backlogBeganNanos < 0 ? -1 : previousNanos - backlogBeganNanos;
    }

    /**
     * Until the link is measured, bounds it from above: what drained since the stream started,
     * plus one sender write in flight, over the time. NaN until one write has finished or
     * {@value #STARTUP_SILENCE_MILLIS} ms have passed. Waiting for the first write would let a
     * writer far faster than a slow link queue its first megabytes at weak rungs (the whole
     * input, on a short transfer: 2 MiB of JSON leave the writer in 6 ms, the first 64 KiB write
     * takes 52 ms at 10 Mbit/s). But no write finished may also be a sender not yet scheduled,
     * on a fast link, so while the bound rests on silence alone the start-up rung may not spend
     * longer on a block than the silence has lasted: a stall costs at most about its own length.
     */
    void boundStartup(Observation o) {
        if (startNanos < 0) {
            startNanos = o.nanoTime() - o.compressNanos();
            startDrained = o.drainedBytes();
        }
        long elapsed = Math.max(1, o.nanoTime() - startNanos);
        boolean written = o.drainedBytes() > startDrained;
        if (written || elapsed >= STARTUP_SILENCE_MILLIS * 1_000_000L) {
            startupLinkAtMost = (o.drainedBytes() + SENDER_WRITE) * 1e9 / elapsed;
            silenceNanos = written ? Long.MAX_VALUE : elapsed;
        }
    }

    /**
     * Measures the link over windows of at least {@value #LINK_WINDOW_BYTES} bytes drained or
     * {@value #LINK_WINDOW_MILLIS} ms: a sender writes in chunks, so the drained count moves in
     * steps that a per-block rate would turn into noise. A FIFO that fills fast says sooner that
     * the link has slowed (see boundLinkByBacklog). Raw blocks the writer wrote to the sink
     * itself leave the FIFO dry, so their windows are idle ones, as those of raw blocks the
     * sender took at once were; such writes lower the estimate instead (see
     * boundLinkByDirectWrites), and an idle window raises it no further than their pace.
     *
     * @param historiesLent whether the stream keeps histories and lends them now, which caps
     *     what an idle window may raise a guess to
     */
    void learn(Observation o, boolean historiesLent) {
        boolean senderBusy = o.fifoBytesAtBlockStart() > 0 && o.fifoBytes() > 0;
        if (!senderBusy) {
            raiseLinkByEmptiedBacklog(o);
        }
        boundLinkByBacklog(o, senderBusy);
        boundLinkByDirectWrites(o);
        measureLinkByRawSpan(o);
        previousNanos = o.nanoTime();
        previousDrained = o.drainedBytes();
        if (windowStartNanos < 0) {
            startWindow(o);
            return;
        }
        windowBusy &= senderBusy;
        windowLinkIdleKnown &= o.linkIdleNanos() >= 0;
        windowLinkIdleNanos += Math.max(0, o.linkIdleNanos());
        windowDirectBytes += o.directWriteBytes();
        windowDirectNanos += o.directWriteNanos();
        windowPeakFifo = Math.max(windowPeakFifo, o.fifoBytes());
        windowTopRung = Math.max(windowTopRung, o.rung());
        long elapsed = o.nanoTime() - windowStartNanos;
        long drained = o.drainedBytes() - windowStartDrained;
        boolean enoughDrained = drained >= LINK_WINDOW_BYTES;
        // A window the FIFO ran dry in at some block is busy all the same if the pipeline says
        // the link sat idle for a small part of it: over the rest the sender was writing, at the
        // link's pace, so the rest measures it. Read from the FIFO at block ends alone, such a
        // window (JSON at 10 Mbit/s, dry for 3 ms of 113 around the first write) doubled a guess
        // instead, and the stream held zstd:9 where zstd:15 fills the link. Not a window with
        // raw blocks the writer wrote itself: the link was busy with those writes, but one that
        // a stall at either end held reads as a slow link, and boundLinkByDirectWrites judges
        // them with the stall allowance. On unthrottled loopback a window of two direct writes,
        // one held 2.4 ms, measured 107 MB/s, replaced the guess, and sent the next 145 blocks
        // to LZ4 and zstd:1.
        boolean idleBriefly = !windowBusy && windowLinkIdleKnown && windowDirectNanos == 0
                && windowLinkIdleNanos <= MEASURABLE_IDLE_SHARE * elapsed;
        boolean busy = windowBusy || idleBriefly;
        // A busy window needs two sender writes drained before time alone may close it: the
        // drained count moves in whole writes, so one write over a short time reads as a link
        // many times faster, and none as a dead one.
        boolean timeUp = elapsed >= LINK_WINDOW_MILLIS * 1_000_000L && (!busy || drained >= 2 * SENDER_WRITE);
        if (!enoughDrained && !timeUp) {
            return;
        }
        double observed = drained * 1e9 / Math.max(1, elapsed - (idleBriefly ? windowLinkIdleNanos : 0));
        if (busy) {
            // A guess that a busy window measures wrong is replaced, not averaged, as TCP cuts
            // its window on a loss: a rung chosen on the guess (raw, on a link that only looked
            // fast because the compressor was the bottleneck) would go on flooding the FIFO for
            // several windows while an average came down.
            boolean refuted = linkGuessed && observed < link;
            link = Double.isNaN(link) || refuted ? observed : link + LINK_ALPHA * (observed - link);
            linkGuessed = false;
            averageIntoMeasured(observed);
            idleWindows = 0;
        } else if (windowPeakFifo >= LINK_WINDOW_GROWTH) {
            // The FIFO ran dry at some block of the window but also held a backlog in it: the
            // link did not take all it was offered, which is no sign of a faster link, however
            // fast the drained count moved (a socket buffer that empties swallows a backlog at
            // memory speed). The next window, busy throughout, measures it.
            idleWindows = 0;
        } else {
            // The link took everything offered, so it is faster than that by an unknown margin.
            // As TCP does: double the estimate per such window until the link has been measured
            // once (slow start), then grow it by a quarter (or faster rungs, raw above all,
            // would be tried on an estimate far above the rate just measured, and flap back),
            // doubling again once idle windows keep coming (the link really got faster).
            idleWindows++;
            idleWindowCount++;
            lastIdleWindowTopRung = windowTopRung;
            boolean slowStart = !linkMeasured || idleWindows > IDLE_WINDOWS_TO_SLOW_START;
            // What drained is a lower bound on the link only over long spans: a sink that
            // absorbs a burst (a socket buffer, a token bucket's credit) reads far faster for a
            // window. So it may lift the estimate to itself, but by no more than a doubling.
            double growth = slowStart ? IDLE_LINK_GROWTH : IDLE_LINK_CREEP;
            double raised = Double.isNaN(link) ? observed * growth
                    : Math.max(link * growth, Math.min(observed, link * IDLE_LINK_GROWTH));
            // With histories, a window that offered the link a small fraction of the estimate
            // says nothing of rates far beyond what it offered, as TCP grows no window that a
            // sender limited by its application leaves unused (RFC 7661): the guess runs to at
            // most GUESS_HEADROOM times what drained, and is never lowered by that. A warm
            // history sends a sixtieth of its input (zstd:1 on repeated prose: 18 MB/s on the
            // wire at 1 Gbit/s), and without the ceiling idle windows raised that link's
            // estimate a hundredfold, to where raw looked best. Not without histories: there
            // the rung offering least is a slow codec on a fast link, and the ceiling held
            // text at LZ4 on a 10 Gbit/s link that raw fills (1.33x, four invocations each).
            double ceiling = historiesLent ? Math.max(Double.isNaN(link) ? 0 : link, observed * GUESS_HEADROOM)
                    : Double.MAX_VALUE;
            // Raw blocks the writer wrote itself waited on the sink: the link took them no
            // faster than they went, so the window may raise the estimate to that pace, not past
            // it. Without this cap, a stream sending random data raw at 1000 Mbit/s doubled its
            // estimate every two blocks, to tens of GB/s, and then sent the text after it raw as
            // well, where zstd:1 keeps up with that link sending 43 % of the bytes.
            // Nor past what the last span of such writes measured (see measureLinkByRawSpan).
            if (windowDirectNanos > 0) {
                double directPace = windowDirectBytes * 1e9 / windowDirectNanos;
                double paceCap = Double.isNaN(rawSpanPace) ? directPace : Math.min(directPace, rawSpanPace);
                ceiling = Math.min(ceiling, Math.max(Double.isNaN(link) ? 0 : link, paceCap));
            }
            double guess = Math.min(MAX_LINK, Math.max(Math.min(raised, ceiling), 1));
            linkGuessed |= Double.isNaN(link) || guess > link;
            link = guess;
        }
        startWindow(o);
    }

    /**
     * While the FIFO has held a backlog since a block began, the sender has been writing all
     * along, so over any span of that backlog the link is at most what drained plus one sender
     * write in flight, over the span's time. Once the backlog has grown by
     * {@value #LINK_WINDOW_GROWTH} bytes over more than a stall since the last bound, the
     * tightest such bound (from the last {@value #BACKLOG_MARKS} points a bound was taken at)
     * lowers the estimate at once: a link that slowed is seen within a few milliseconds, where
     * the measuring windows take up to {@value #LINK_WINDOW_MILLIS} ms, and a window that began
     * with the FIFO dry (a compressor-bound rung) sees nothing at all; a writer at raw's pace
     * queues a megabyte in those milliseconds, which a link that dropped to 10 Mbit/s needs a
     * second to carry. Spans, not just the last one: the write in flight makes a bound over a
     * few milliseconds no tighter than 64 KiB in that time (16 MB/s over 4 ms), and the first
     * span of a backlog may include a burst a socket buffer swallowed. An upper bound, so it
     * only ever lowers the estimate.
     *
     * <p>A full FIFO cannot grow, so a writer that waited for room in it bounds the link as
     * growth does. Counting growth alone, a link that dropped from 1000 to 10 Mbit/s with the
     * FIFO near full (the step scenario's megabyte of zstd:1 frames) kept an estimate of
     * 16 MB/s for 300 ms, until a window closed. A sender that lost its core for a moment with
     * the FIFO full reads as a slower link too, as it does with the FIFO growing; traced on
     * binaries at 10 Gbit/s, one block so read the link as 96 MB/s and the next block's
     * estimate was 1064 MB/s again. The step scenario's median fell from 0.932 s to 0.851 s
     * (210 runs each, side by side; docs/data/link-step-full-fifo-05133a5.txt).
     */
    private void boundLinkByBacklog(Observation o, boolean senderBusy) {
        if (!senderBusy) {
            backlogSinceNanos = -1;
            backlogBeganNanos = -1;
            backlogMarks.clear();
            return;
        }
        if (backlogBeganNanos < 0) {
            backlogBeganNanos = o.nanoTime();
        }
        if (backlogSinceNanos >= 0) {
            long elapsed = o.nanoTime() - backlogSinceNanos;
            long grown = o.fifoBytes() - backlogSinceFifo;
            boolean waitedForRoom = o.writerWaitNanos() > o.directWriteNanos();
            long stall = guessOutranMeasurement() ? 0 : STALL_MILLIS * 1_000_000L;
            if ((grown < LINK_WINDOW_GROWTH && !waitedForRoom) || elapsed < stall || Double.isNaN(link)) {
                return;
            }
            double atMost = backlogMarks.slowestRateTo(o.nanoTime(), o.drainedBytes(), SENDER_WRITE);
            fifoOutrunsLink = atMost < backlogStartLink * LINK_SLOWED;
            link = Math.min(link, atMost);
        }
        // The next bound waits for a stall's time from here: each one judges the rung chosen on the last.
        backlogSinceNanos = o.nanoTime();
        backlogSinceFifo = o.fifoBytes();
        backlogStartLink = link;
        backlogMarks.add(o.nanoTime(), o.drainedBytes());
    }

    /**
     * Raw blocks the writer wrote to the sink itself bound the link as a backlog does: a write
     * returns once the sink has taken its bytes, no sooner than the link carries them once the
     * sink's buffer is full, so the bytes written over the time spent writing are at most the
     * link's rate, or more while the buffer has room. Summed until they took longer than
     * {@value #DIRECT_WRITE_SPAN_MILLIS} ms (a write held by a stall at either end reads as a
     * slower link, so one must outlast two stalls to count alone), they make a bound, which
     * lowers the estimate once the next direct write agrees: no more than
     * {@value #DIRECT_BOUND_CONFIRMATION} times as fast. A link that dropped makes every write
     * slow; a sink that held one write for a moment takes the next at once (an HDFS DataNode
     * on loopback held one for 4-10 ms a few times a file, and each such write, read alone as a
     * link of 13-16 MB/s, sent the next blocks to zstd:1-9). A write of
     * {@value #DIRECT_WRITE_ALONE_MILLIS} ms or more bounds it at once. Nothing else would lower the
     * estimate here: with the FIFO dry, no backlog builds and every window is an idle one,
     * which only ever raises the estimate, so a stream that sends raw on a fast link would send
     * raw on after the link dropped to a rate zstd would fill.
     */
    private void boundLinkByDirectWrites(Observation o) {
        if (o.directWriteNanos() == 0) {
            unconfirmedDirectBound = Double.NaN;
            return;
        }
        double pending = unconfirmedDirectBound;
        unconfirmedDirectBound = Double.NaN;
        if (!Double.isNaN(pending)) {
            double pace = o.directWriteBytes() * 1e9 / o.directWriteNanos();
            if (pace <= DIRECT_BOUND_CONFIRMATION * pending) {
                lowerLinkTo(Math.max(pending, pace));
                directBytes = 0;
                directNanos = 0;
                return;
            }
        }
        long span = DIRECT_WRITE_SPAN_MILLIS * 1_000_000L;
        if (o.directWriteNanos() >= span) {
            // Long enough alone: earlier writes, on a link that may since have dropped, would blur it.
            directBytes = 0;
            directNanos = 0;
        }
        directBytes += o.directWriteBytes();
        directNanos += o.directWriteNanos();
        if (directNanos < span) {
            return;
        }
        double bound = directBytes * 1e9 / directNanos;
        directBytes = 0;
        directNanos = 0;
        if (o.directWriteNanos() < DIRECT_WRITE_ALONE_MILLIS * 1_000_000L) {
            unconfirmedDirectBound = bound;
        } else {
            lowerLinkTo(bound);
        }
    }

    /**
     * Raw blocks the writer wrote itself, back to back for {@value #RAW_SPAN_MILLIS} ms or more,
     * measure the link as a busy window does when the writer spent most of that time in the
     * writes: the link, not the writer, set the pace, and the bytes over the span's time are
     * its rate. Over a span that long a sink's burst (a socket buffer, a token bucket's 10 ms of
     * credit) adds little. Over the windows, which close every {@value #LINK_WINDOW_BYTES}
     * bytes, it does not: at 10 Gbit/s, after a stretch at LZ4, the credit let such writes take
     * 10-16 us a block, and idle windows doubled the estimate to a guess of 5-12 GB/s on a
     * 1.25 GB/s link. Until the next span, idle windows of such writes raise the estimate no
     * further than the span measured.
     */
    private void measureLinkByRawSpan(Observation o) {
        if (o.rung() != 0 || o.directWriteNanos() == 0 || previousNanos < 0) {
            rawSpanStartNanos = -1;
            return;
        }
        if (rawSpanStartNanos < 0) {
            rawSpanStartNanos = previousNanos;
            rawSpanBytes = 0;
            rawSpanWriteNanos = 0;
        }
        rawSpanBytes += o.directWriteBytes();
        rawSpanWriteNanos += o.directWriteNanos();
        long elapsed = o.nanoTime() - rawSpanStartNanos;
        if (elapsed < RAW_SPAN_MILLIS * 1_000_000L) {
            return;
        }
        rawSpanPace = Double.NaN;
        if (rawSpanWriteNanos >= RAW_SPAN_WRITE_SHARE * elapsed) {
            rawSpanPace = rawSpanBytes * 1e9 / elapsed;
            link = rawSpanPace;
            linkGuessed = false;
            averageIntoMeasured(rawSpanPace);
        }
        rawSpanStartNanos = o.nanoTime();
        rawSpanBytes = 0;
        rawSpanWriteNanos = 0;
    }

    /** Averages {@code rate}, measured over a stretch the link set the pace of, into the measured link. */
    private void averageIntoMeasured(double rate) {
        measuredLink = Double.isNaN(measuredLink) ? rate : measuredLink + LINK_ALPHA * (rate - measuredLink);
        linkMeasured = true;
    }

    /** Lowers a known estimate to {@code atMost}, if it is above it. */
    private void lowerLinkTo(double atMost) {
        if (!Double.isNaN(link)) {
            link = Math.min(link, atMost);
        }
    }

    /**
     * A backlog held for longer than a stall, which the sender then emptied within one block,
     * says the link got faster, and by how much: what drained since the previous block, less
     * one sender write that may have begun before it, over at least a stall's time, is a lower
     * bound on the link (the sink was full, or the backlog would not have held).
     * It replaces a lower estimate at once. Without it, the estimate would only creep up by
     * idle windows of up to {@value #LINK_WINDOW_MILLIS} ms each, while the slow rung the slow
     * link called for holds the stream back on a link a hundred times faster.
     */
    private void raiseLinkByEmptiedBacklog(Observation o) {
        boolean heldPastAStall = backlogBeganNanos >= 0
                && previousNanos - backlogBeganNanos >= STALL_MILLIS * 1_000_000L;
        if (!heldPastAStall || o.fifoBytesAtBlockStart() == 0 || Double.isNaN(link)) {
            return;
        }
        // Only what was queued can have drained; and over less than a stall's time a burst
        // into a buffer that grew (a socket's, autotuned) would read as a link far faster.
        long emptied = Math.min(o.drainedBytes() - previousDrained, o.fifoBytesAtBlockStart() + o.storedLength());
        double atLeast = (emptied - SENDER_WRITE) * 1e9
                / Math.max(STALL_MILLIS * 1_000_000L, o.nanoTime() - previousNanos);
        if (atLeast > link) {
            link = atLeast;
            measuredLink = Double.isNaN(measuredLink) ? atLeast : Math.max(measuredLink, atLeast);
            linkGuessed = false;
            startWindow(o);
        }
    }

    /**
     * The estimate is a guess that idle windows raised past twice anything a busy window ever
     * measured. A backlog then refutes it at once, without waiting out a stall: the rung it
     * chose (raw, typically) is the one that floods the FIFO fastest, and the link has shown
     * it is slower; a sink that absorbs bursts (a socket buffer, a token bucket's credit) makes
     * idle windows of a link a fast codec already fills. A link never measured keeps the stall
     * allowance: there a backlog is as likely a sender that lost its core.
     */
    private boolean guessOutranMeasurement() {
        return linkGuessed && !Double.isNaN(measuredLink) && link > GUESS_BEYOND_MEASURED * measuredLink;
    }

    private void startWindow(Observation o) {
        windowStartNanos = o.nanoTime();
        windowStartDrained = o.drainedBytes();
        windowBusy = true;
        windowLinkIdleNanos = 0;
        windowLinkIdleKnown = true;
        windowDirectBytes = 0;
        windowDirectNanos = 0;
        windowPeakFifo = o.fifoBytes();
        windowTopRung = 0;
    }
}
