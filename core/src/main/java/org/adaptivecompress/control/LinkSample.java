package org.adaptivecompress.control;

import java.util.Objects;

/**
 * What the writes into the sink showed since the previous observation, as a
 * {@link org.adaptivecompress.internal.engine.SinkMeter} measured them: how much was written and
 * for how long, how long nothing was there to write, and the spans between moments the sink
 * was full (a write that had to wait for the link), over which the bytes written are the bytes
 * the link carried, whatever buffers lie between.
 *
 * <p>A sink whose buffer has room takes a write at once, so the time of single writes says
 * little of the link: a kernel's socket buffer swallows megabytes, then stalls the writer while
 * it drains. From one full moment to the next, though, the buffer is as full at both ends, so
 * the bytes written in between crossed the link in that time. {@link #NONE} is the sample of a
 * pipeline that does not meter its sink (Kafka's serializer, whose FIFO is the producer's
 * unacknowledged bytes). Immutable.
 */
public final class LinkSample {

    /** The sample of a pipeline that does not meter its sink. */
    public static final LinkSample NONE = new LinkSample(-1, -1, -1, 0, 0, 0, 0, false, -1, -1);

    private final long writtenBytes;
    private final long writeNanos;
    private final long idleNanos;
    private final long fullSpanBytes;
    private final long fullSpanNanos;
    private final long lastSpanBytes;
    private final long lastSpanNanos;
    private final boolean stalled;
    private final long openSpanBytes;
    private final long openSpanNanos;

    /**
     * @param writtenBytes bytes the sink took
     * @param writeNanos time spent inside the sink's writes
     * @param idleNanos time nothing was queued for the sink nor being written to it
     * @param fullSpanBytes bytes written over the spans between full moments that ended since the
     *     previous observation, with the sink never left idle in between
     * @param fullSpanNanos the time those spans lasted
     * @param lastSpanBytes of those, the bytes of the newest span alone
     * @param lastSpanNanos the time the newest span lasted
     * @param stalled whether a write is waiting for the link right now
     * @param openSpanBytes bytes written since the last full moment, counting the write in
     *     progress whole; -1 if there is no such moment, or the sink may have run dry since
     * @param openSpanNanos time since the last full moment; -1 as {@code openSpanBytes}
     */
    public LinkSample(long writtenBytes, long writeNanos, long idleNanos, long fullSpanBytes, long fullSpanNanos,
            long lastSpanBytes, long lastSpanNanos, boolean stalled, long openSpanBytes, long openSpanNanos) {
        this.writtenBytes = writtenBytes;
        this.writeNanos = writeNanos;
        this.idleNanos = idleNanos;
        this.fullSpanBytes = fullSpanBytes;
        this.fullSpanNanos = fullSpanNanos;
        this.lastSpanBytes = lastSpanBytes;
        this.lastSpanNanos = lastSpanNanos;
        this.stalled = stalled;
        this.openSpanBytes = openSpanBytes;
        this.openSpanNanos = openSpanNanos;
    }

    /** Whether this sample comes from a meter: false for {@link #NONE}. */
    public boolean metered() {
        return writtenBytes >= 0;
    }

    /** Whether a span between full moments ended since the previous observation. */
    public boolean spanEnded() {
        return fullSpanNanos > 0;
    }

    /** Bytes the sink took; -1 if not metered. */
    public long writtenBytes() {
        return writtenBytes;
    }

    /** Time spent inside the sink's writes; -1 if not metered. */
    public long writeNanos() {
        return writeNanos;
    }

    /** Time nothing was queued for the sink nor being written to it; -1 if not metered. */
    public long idleNanos() {
        return idleNanos;
    }

    /** Bytes written over the spans between full moments that ended since the previous sample. */
    public long fullSpanBytes() {
        return fullSpanBytes;
    }

    /** The time those spans lasted. */
    public long fullSpanNanos() {
        return fullSpanNanos;
    }

    /** Of {@link #fullSpanBytes()}, the newest span's: the link's rate most lately. */
    public long lastSpanBytes() {
        return lastSpanBytes;
    }

    /** The time the newest span lasted. */
    public long lastSpanNanos() {
        return lastSpanNanos;
    }

    /** Whether a write is waiting for the link right now. */
    public boolean stalled() {
        return stalled;
    }

    /** Bytes written since the last full moment, the write in progress counted whole; -1 if none. */
    public long openSpanBytes() {
        return openSpanBytes;
    }

    /** Time since the last full moment; -1 if none. */
    public long openSpanNanos() {
        return openSpanNanos;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LinkSample)) {
            return false;
        }
        LinkSample s = (LinkSample) o;
        return writtenBytes == s.writtenBytes && writeNanos == s.writeNanos && idleNanos == s.idleNanos
                && fullSpanBytes == s.fullSpanBytes && fullSpanNanos == s.fullSpanNanos
                && lastSpanBytes == s.lastSpanBytes && lastSpanNanos == s.lastSpanNanos && stalled == s.stalled
                && openSpanBytes == s.openSpanBytes && openSpanNanos == s.openSpanNanos;
    }

    @Override
    public int hashCode() {
        return Objects.hash(writtenBytes, writeNanos, idleNanos, fullSpanBytes, fullSpanNanos, lastSpanBytes,
                lastSpanNanos, stalled, openSpanBytes, openSpanNanos);
    }

    @Override
    public String toString() {
        if (!metered()) {
            return "LinkSample{not metered}";
        }
        return "LinkSample{wrote " + writtenBytes + " B in " + writeNanos + " ns, idle " + idleNanos + " ns"
                + (spanEnded() ? ", full spans " + fullSpanBytes + " B in " + fullSpanNanos + " ns, the last "
                        + lastSpanBytes + " B in " + lastSpanNanos + " ns" : "")
                + (stalled ? ", stalled" : "")
                + (openSpanBytes >= 0 ? ", open span " + openSpanBytes + " B in " + openSpanNanos + " ns" : "") + "}";
    }
}
