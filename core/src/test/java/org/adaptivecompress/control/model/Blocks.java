package org.adaptivecompress.control.model;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LinkSample;
import org.adaptivecompress.control.Observation;

/**
 * Builds the observations the model's estimators and policies are tested on: 128 KiB blocks of
 * the reference data on the default ladder, on a clock the test moves, with the link's
 * behaviour given as a {@link LinkSample}. The writer costs nothing of its own: the time between
 * two blocks not spent compressing is reported as waiting for the FIFO.
 */
final class Blocks {

    static final Ladder LADDER = Ladder.defaultLadder();
    static final int TOP = LADDER.top();
    static final int BLOCK = 128 * 1024;
    static final long MS = 1_000_000;

    private long now = 1_000 * MS;
    /** When the last block was observed; -1 before the first. */
    private long last = -1;
    private long block;
    private long drained;
    private long fifo;

    long now() {
        return now;
    }

    /** Moves the clock on. */
    Blocks after(long nanos) {
        now += nanos;
        return this;
    }

    /** A block at {@code rung} of the reference data's ratio and speed there, with {@code link}. */
    Observation at(int rung, LinkSample link) {
        double[] prior = RungPriors.prior(LADDER.rung(rung));
        return at(rung, (int) (BLOCK / prior[1]), (long) (BLOCK * 1e9 / prior[0]), link);
    }

    /** A block at {@code rung} stored in {@code stored} bytes after {@code compressNanos}, with {@code link}. */
    Observation at(int rung, int stored, long compressNanos, LinkSample link) {
        return Observation.builder().blockNumber(block++).rung(rung).topRung(TOP)
                .block(BLOCK, stored, stored >= BLOCK).compressNanos(compressNanos)
                .writerWaitNanos(waited(compressNanos))
                .fifo(fifo, fifo).drainedBytes(drained).nanoTime(now).link(link).build();
    }

    /** An unmetered block at {@code rung} whose FIFO holds {@code fifoBytes} throughout, {@code drainedNow} drained since the last. */
    Observation unmetered(int rung, long fifoBytes, long drainedNow) {
        long before = fifo;
        fifo = fifoBytes;
        drained += drainedNow;
        double[] prior = RungPriors.prior(LADDER.rung(rung));
        long compressNanos = (long) (BLOCK * 1e9 / prior[0]);
        return Observation.builder().blockNumber(block++).rung(rung).topRung(TOP)
                .block(BLOCK, (int) (BLOCK / prior[1]), false).compressNanos(compressNanos)
                .writerWaitNanos(waited(compressNanos))
                .fifo(before, fifoBytes).drainedBytes(drained).nanoTime(now).build();
    }

    /** The time since the last block not spent compressing this one. */
    private long waited(long compressNanos) {
        long waited = last < 0 ? 0 : Math.max(0, now - last - compressNanos);
        last = now;
        return waited;
    }

    /** A sample in which a span between full moments of {@code bytes} over {@code nanos} ended. */
    static LinkSample span(long bytes, long nanos) {
        return new LinkSample(bytes, nanos, 0, bytes, nanos, bytes, nanos, false, 0, 0);
    }

    /** A sample in which the sink took {@code bytes} at once, never full. */
    static LinkSample free(long bytes) {
        return new LinkSample(bytes, 1_000, 0, 0, 0, 0, 0, false, -1, -1);
    }

    /** A sample in which a write has waited {@code nanos} since the last full moment, {@code bytes} written since. */
    static LinkSample stalled(long bytes, long nanos) {
        return new LinkSample(0, nanos, 0, 0, 0, 0, 0, true, bytes, nanos);
    }

    /** A sample in which nothing was written: the stream produced nothing for the sink. */
    static LinkSample quiet(long nanos) {
        return new LinkSample(0, 0, nanos, 0, 0, 0, 0, false, -1, -1);
    }
}
