package org.adaptivecompress.internal.engine;

import org.adaptivecompress.control.LinkSample;

/**
 * Times a pipeline's writes into its sink, for the controller's link estimate: the thread that
 * writes tells it when each write starts and ends, the FIFO tells it when bytes are waiting, and
 * once per block the compressing thread takes a {@link LinkSample} of what happened since.
 *
 * <p>A write that takes longer than copying its bytes could ({@link #stalled}) waited for the
 * link: the sink was full when it returned. From one such moment to the next, the bytes
 * written are the bytes the link carried, however large the buffers between (a kernel's send
 * buffer takes megabytes, then stalls the writer while it drains), as long as the buffer did
 * not run dry in between. It can only have run dry while nothing was written, so a span in
 * which the sink sat idle more than {@value #MAX_IDLE_PERCENT} % of the time is not counted,
 * and any other is off by at most that much.
 *
 * <p>Times are {@link System#nanoTime()} or a simulated clock, passed in by the callers. Safe
 * for one writing thread, one FIFO and one sampling thread at once.
 */
public final class SinkMeter {

    /** A write is taken to have waited for the link past this much time ... */
    static final long STALL_NANOS = 100_000;
    /** ... plus its copy at 2 GB/s, faster than any link it could be waiting for here. */
    static final double COPY_NANOS_PER_BYTE = 0.5;
    /** A span idle longer than this share of its time may hold time the link sat idle: not counted. */
    static final int MAX_IDLE_PERCENT = 25;

    private long lastSampleAt;
    private long written;
    private long writeNanos;
    private long idleNanos;
    private long spanBytes;
    private long spanNanos;
    private long lastSpanBytes;
    private long lastSpanNanos;

    private boolean writing;
    private long writeStartedAt;
    private long writeLength;
    private boolean queued;
    /** Since when nothing is queued nor being written; -1 while something is. */
    private long idleSince;
    /** Idle time since the last full moment, gaps that ended. */
    private long idleSinceFull;

    /**
     * What a new socket's buffer takes before the link has carried anything: Linux sizes it from
     * a congestion window of ten segments, lets a write overshoot it, and grows it by at most what
     * the link carries (over loopback shaped to 50 Mbit/s, about 150 KB went at once).
     */
    public static final long NEW_SOCKET_BUFFER_BYTES = 128 << 10;
    /**
     * A sink that took this many bytes without filling has shown that the link is fast: four
     * times a new socket's buffer, twice what the controller's first lower bound on the link needs.
     */
    public static final long SHOWN_WITHOUT_SPAN_BYTES = 4 * NEW_SOCKET_BUFFER_BYTES;

    /** Whether a span between full moments has ended, or {@link #SHOWN_WITHOUT_SPAN_BYTES} were written. */
    private volatile boolean linkShown;
    private long writtenTotal;

    /** The last full moment, and the bytes written since; -1 when there is none to span from. */
    private long lastFullAt = -1;
    private long bytesSinceFull;

    /** A meter whose first sample starts at {@code now}, with the sink idle. */
    public SinkMeter(long now) {
        this.lastSampleAt = now;
        this.idleSince = now;
    }

    /** A write of {@code length} bytes into the sink begins. */
    public synchronized void writeStarted(long now, long length) {
        busy(now);
        writing = true;
        writeStartedAt = now;
        writeLength = length;
    }

    /** The write begun last returned having written {@code bytes}. */
    public synchronized void writeEnded(long now, long bytes) {
        writing = false;
        long took = Math.max(0, now - writeStartedAt);
        written += bytes;
        writtenTotal += bytes;
        writeNanos += took;
        if (writtenTotal >= SHOWN_WITHOUT_SPAN_BYTES) {
            linkShown = true;
        }
        if (lastFullAt >= 0) {
            bytesSinceFull += bytes;
        }
        if (stalled(took, bytes)) {
            long span = Math.max(1, now - lastFullAt);
            if (lastFullAt >= 0 && idleSinceFull * 100 <= MAX_IDLE_PERCENT * span) {
                spanBytes += bytesSinceFull;
                spanNanos += span;
                lastSpanBytes = bytesSinceFull;
                lastSpanNanos = span;
                linkShown = true;
            }
            lastFullAt = now;
            bytesSinceFull = 0;
            idleSinceFull = 0;
        }
        idleIfNothingQueued(now);
    }

    /** Bytes are waiting for the sink from now on ({@code true}) or no longer ({@code false}). */
    public synchronized void queued(long now, boolean anything) {
        if (anything) {
            busy(now);
            queued = true;
        } else {
            queued = false;
            idleIfNothingQueued(now);
        }
    }

    /**
     * Whether the writes have shown the link's rate: a span between full moments has ended, or
     * the sink took more than a socket buffer holds at first without one. Until then a pipeline
     * should not run far ahead of its sink, since what it queues is compressed for a link
     * nobody knows. Safe from any thread.
     */
    public boolean linkShown() {
        return linkShown;
    }

    /** What happened since the last sample (or since the meter was made), and whether a write waits now. */
    public synchronized LinkSample sample(long now) {
        long idleNow = idleSince >= 0 ? Math.max(0, now - idleSince) : 0;
        long idle = idleNanos + idleNow;
        if (idleSince >= 0) {
            idleSinceFull += idleNow;
            idleSince = now;
        }
        boolean stalledNow = writing && stalled(now - writeStartedAt, writeLength);
        long openNanos = lastFullAt < 0 ? -1 : Math.max(1, now - lastFullAt); // idle until now counted above
        boolean openValid = openNanos > 0 && idleSinceFull * 100 <= MAX_IDLE_PERCENT * openNanos;
        long openBytes = openValid ? bytesSinceFull + (writing ? writeLength : 0) : -1;
        openNanos = openValid ? openNanos : -1;
        LinkSample s = new LinkSample(written, writeNanos, idle, spanBytes, spanNanos, lastSpanBytes, lastSpanNanos,
                stalledNow, openBytes, openNanos);
        written = 0;
        writeNanos = 0;
        idleNanos = 0;
        spanBytes = 0;
        spanNanos = 0;
        lastSpanBytes = 0;
        lastSpanNanos = 0;
        lastSampleAt = now;
        return s;
    }

    /** Whether a write of {@code bytes} that took {@code nanos} waited for the link. */
    static boolean stalled(long nanos, long bytes) {
        return nanos > STALL_NANOS + bytes * COPY_NANOS_PER_BYTE;
    }

    private void busy(long now) {
        if (idleSince >= 0) {
            long idle = Math.max(0, now - idleSince);
            idleNanos += idle;
            idleSinceFull += idle;
            idleSince = -1;
        }
    }

    private void idleIfNothingQueued(long now) {
        if (!queued && !writing && idleSince < 0) {
            idleSince = now;
        }
    }

    @Override
    public synchronized String toString() {
        return "SinkMeter{written " + written + " B since " + lastSampleAt + (writing ? ", writing" : "")
                + (lastFullAt >= 0 ? ", " + bytesSinceFull + " B since full" : "") + "}";
    }
}
