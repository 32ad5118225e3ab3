package org.adaptivecompress.internal.engine;

import java.util.Objects;
import org.adaptivecompress.control.LinkSample;

/**
 * What a pipeline measured while its last block was compressed and queued, handed to
 * {@link AdaptiveCompressor#update} once the block's frame is ready. The engine adds what it
 * knows of the block and gives the controller one {@link org.adaptivecompress.control.Observation}.
 * Immutable.
 */
public final class PipelineSample {

    private final long fifoBytesAtBlockStart;
    private final long fifoBytesWhenFrameReady;
    private final long drainedBytes;
    private final long writerWaitNanos;
    private final LinkSample link;

    /**
     * @param fifoBytesAtBlockStart bytes queued for the sink when the block started being compressed
     * @param fifoBytesWhenFrameReady bytes queued when its frame was ready, not counting the frame
     * @param drainedBytes bytes the pipeline has handed its sink since the stream started
     * @param writerWaitNanos time the writing thread spent blocked in the pipeline since the last
     *     sample (see {@link org.adaptivecompress.control.Observation#writerWaitNanos()}); 0 where
     *     it never blocks
     * @param link what the sink's writes showed since the last sample; {@link LinkSample#NONE}
     *     where the pipeline does not meter them
     * @throws IllegalArgumentException if a figure is negative
     */
    public PipelineSample(long fifoBytesAtBlockStart, long fifoBytesWhenFrameReady, long drainedBytes,
            long writerWaitNanos, LinkSample link) {
        if (fifoBytesAtBlockStart < 0 || fifoBytesWhenFrameReady < 0 || drainedBytes < 0 || writerWaitNanos < 0) {
            throw new IllegalArgumentException("negative figure in " + fifoBytesAtBlockStart + ", "
                    + fifoBytesWhenFrameReady + ", " + drainedBytes + ", " + writerWaitNanos);
        }
        this.fifoBytesAtBlockStart = fifoBytesAtBlockStart;
        this.fifoBytesWhenFrameReady = fifoBytesWhenFrameReady;
        this.drainedBytes = drainedBytes;
        this.writerWaitNanos = writerWaitNanos;
        this.link = Objects.requireNonNull(link, "link is null");
    }

    /** A sample of a pipeline that knows its FIFO alone: Netty's encoder, Kafka's serializer, a bare compressor. */
    public static PipelineSample ofFifo(long fifoBytesAtBlockStart, long fifoBytesWhenFrameReady, long drainedBytes) {
        return new PipelineSample(fifoBytesAtBlockStart, fifoBytesWhenFrameReady, drainedBytes, 0, LinkSample.NONE);
    }

    /** Bytes queued for the sink when the block started being compressed. */
    public long fifoBytesAtBlockStart() {
        return fifoBytesAtBlockStart;
    }

    /** Bytes queued when its frame was ready, not counting the frame. */
    public long fifoBytesWhenFrameReady() {
        return fifoBytesWhenFrameReady;
    }

    /** Bytes the pipeline has handed its sink since the stream started. */
    public long drainedBytes() {
        return drainedBytes;
    }

    /** Time the writing thread spent blocked in the pipeline since the last sample. */
    public long writerWaitNanos() {
        return writerWaitNanos;
    }

    /** What the sink's writes showed since the last sample. */
    public LinkSample link() {
        return link;
    }

    @Override
    public String toString() {
        return "PipelineSample{fifo " + fifoBytesAtBlockStart + " -> " + fifoBytesWhenFrameReady + ", drained "
                + drainedBytes + ", writer waited " + writerWaitNanos + " ns, " + link + "}";
    }
}
