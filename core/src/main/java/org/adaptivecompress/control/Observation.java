package org.adaptivecompress.control;

/**
 * What the pipeline saw while one block was compressed and queued: the FIFO before and after,
 * the block's sizes and compression time, and how much the sender has drained so far.
 *
 * <p>Immutable. The engine makes one per block; tests and simulations build their own with
 * {@link #builder()}.
 */
public final class Observation {

    private final int rung;
    private final int topRung;
    private final long fifoBytesAtBlockStart;
    private final long fifoBytes;
    private final int uncompressedLength;
    private final int storedLength;
    private final boolean incompressible;
    private final long compressNanos;
    private final long cpuNanos;
    private final int workers;
    private final long drainedBytes;
    private final long nanoTime;
    private final long writerWaitNanos;
    private final LinkSample link;
    private final long block;
    private final boolean skipped;
    private final boolean historyStarted;
    private final boolean historyWithheld;

    private Observation(Builder b) {
        this.rung = b.rung;
        this.topRung = b.topRung;
        this.fifoBytesAtBlockStart = b.fifoBytesAtBlockStart;
        this.fifoBytes = b.fifoBytes;
        this.uncompressedLength = b.uncompressedLength;
        this.storedLength = b.storedLength;
        this.incompressible = b.incompressible;
        this.compressNanos = b.compressNanos;
        this.cpuNanos = b.cpuNanos;
        this.workers = b.workers;
        this.drainedBytes = b.drainedBytes;
        this.nanoTime = b.nanoTime;
        this.writerWaitNanos = b.writerWaitNanos;
        this.link = b.link;
        this.block = b.block;
        this.skipped = b.skipped;
        this.historyStarted = b.historyStarted;
        this.historyWithheld = b.historyWithheld;
    }

    /** A builder with every field zero or false, except {@link #workers()}, one, and {@link #link()}, {@link LinkSample#NONE}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The rung the controller had chosen for this block. */
    public int rung() {
        return rung;
    }

    /** The ladder's highest rung index. */
    public int topRung() {
        return topRung;
    }

    /** Bytes waiting in the FIFO when this block started being compressed. */
    public long fifoBytesAtBlockStart() {
        return fifoBytesAtBlockStart;
    }

    /**
     * Bytes in the FIFO once this block's frame joined it, as AdOC would have seen them (see
     * {@link Builder#fifoAroundFrame}): zero means the FIFO ran dry while the block was
     * compressed, so the sender sat idle.
     */
    public long fifoBytes() {
        return fifoBytes;
    }

    /** AdOC's D: how much the FIFO grew (positive) or drained (negative) over this block. */
    public long fifoGrowth() {
        return fifoBytes - fifoBytesAtBlockStart;
    }

    /** Bytes of input in this block. */
    public int uncompressedLength() {
        return uncompressedLength;
    }

    /** Bytes of payload the block took on the wire (without its header). */
    public int storedLength() {
        return storedLength;
    }

    /**
     * True if this block did not shrink by 1/32 at its rung (it was stored raw, or, in a
     * history, left in the history's stream at about its own size), or was stored raw because
     * the engine is skipping compression after such blocks.
     */
    public boolean incompressible() {
        return incompressible;
    }

    /**
     * The time this block cost the pipeline's compression, in nanoseconds: the time spent
     * compressing it divided by {@link #workers()}, so that {@code uncompressedLength() * 1e9 /
     * compressNanos()} is the speed of all workers together, the figure a controller weighs
     * against the link. With one worker (the default) it is the time spent compressing it.
     */
    public long compressNanos() {
        return compressNanos;
    }

    /**
     * The CPU time, on the compressing thread's CPU clock, of the work {@link #compressNanos()}
     * times, divided by the workers as it is; 0 if not measured (a block stored raw untried, a
     * simulation, Kafka's serializer).
     * Less than {@link #compressNanos()} where the thread waited for a core meanwhile.
     */
    public long cpuNanos() {
        return cpuNanos;
    }

    /**
     * How many workers compressed blocks side by side when this block was dispatched: 1 unless
     * the stream compresses in parallel. {@link #compressNanos()} is already divided by it.
     */
    public int workers() {
        return workers;
    }

    /** Total bytes the sender has written to the sink since the stream started. */
    public long drainedBytes() {
        return drainedBytes;
    }

    /** {@link System#nanoTime()} (or a simulated clock) when this observation was taken. */
    public long nanoTime() {
        return nanoTime;
    }

    /**
     * Nanoseconds the writing thread spent blocked inside the stream since the previous
     * observation: waiting for room in the FIFO, for a flush, or for the sink's first write, or
     * writing raw frames to the sink itself while the FIFO was empty. Time that is neither the
     * writer's own work nor the codec's; zero where the writer never blocks (Netty's encoder,
     * whose FIFO is the channel's outbound buffer).
     */
    public long writerWaitNanos() {
        return writerWaitNanos;
    }

    /**
     * What the writes into the sink showed since the previous observation (see
     * {@link LinkSample}); {@link LinkSample#NONE} where the pipeline does not meter its sink.
     */
    public LinkSample link() {
        return link;
    }

    /** The block's number in the stream's life, from 0: the decision after it is for block {@code blockNumber() + 1}. */
    public long blockNumber() {
        return block;
    }

    /**
     * True if the block was stored raw without its rung's codec being tried, because the engine
     * is skipping data it found incompressible: its time and size say nothing of the rung.
     */
    public boolean skipped() {
        return skipped;
    }

    /**
     * True if this block began a history anew (see
     * {@link org.adaptivecompress.engine.AdaptiveCompressionOptions#history()}): the rung's history
     * started, or restarted from the stream's last bytes after missing too much of it. Such a
     * block's ratio is what a cold history finds, at most what the blocks continuing it will,
     * and its time includes loading the stream's last bytes; neither is the rung's steady figure.
     * False for blocks without a history (the default) and for blocks that continue one.
     */
    public boolean historyStarted() {
        return historyStarted;
    }

    /**
     * True if the block's rung keeps a history in this stream but the block was compressed
     * without one, to decode alone: the controller withheld histories (see
     * {@link LevelController#lendsHistories()}), or every history was lent to blocks still being
     * compressed. Its figures are those of the rung without a history, and the rung's history
     * missed it. False for blocks compressed with a history and for streams without histories.
     */
    public boolean historyWithheld() {
        return historyWithheld;
    }

    @Override
    public String toString() {
        return "Observation{block " + block + ", rung=" + rung + "/" + topRung + ", fifo " + fifoBytesAtBlockStart + " -> " + fifoBytes
                + ", " + uncompressedLength + " -> " + storedLength + (skipped ? " (skipped)" : incompressible ? " (incompressible)" : "")
                + ", " + compressNanos + " ns" + (workers > 1 ? " (" + workers + " workers)" : "")
                + ", drained " + drainedBytes + (writerWaitNanos > 0 ? ", writer waited " + writerWaitNanos + " ns" : "")
                + (link.metered() ? ", " + link : "")
                + (historyStarted ? ", history started" : "") + (historyWithheld ? ", history withheld" : "") + "}";
    }

    /** Builds an {@link Observation}. */
    public static final class Builder {
        private int rung;
        private int topRung;
        private long fifoBytesAtBlockStart;
        private long fifoBytes;
        private int uncompressedLength;
        private int storedLength;
        private boolean incompressible;
        private long compressNanos;
        private long cpuNanos;
        private int workers = 1;
        private long drainedBytes;
        private long nanoTime;
        private long writerWaitNanos;
        private LinkSample link = LinkSample.NONE;
        private long block;
        private boolean skipped;
        private boolean historyStarted;
        private boolean historyWithheld;

        private Builder() {}

        /** See {@link Observation#rung()}. */
        public Builder rung(int rung) {
            this.rung = rung;
            return this;
        }

        /** See {@link Observation#topRung()}. */
        public Builder topRung(int topRung) {
            this.topRung = topRung;
            return this;
        }

        /** FIFO bytes at the block's start and once its frame joined the FIFO. */
        public Builder fifo(long atBlockStart, long now) {
            this.fifoBytesAtBlockStart = atBlockStart;
            this.fifoBytes = now;
            return this;
        }

        /**
         * The FIFO as AdOC would have seen it, from what a block pipeline can measure.
         *
         * <p>AdOC queued 8 KB packets as zlib produced them, so on a fast link the sender sent
         * them as they came and the FIFO stayed near empty; a block pipeline queues a frame
         * whole. So the FIFO "now" is the bytes still waiting when the frame was ready plus the
         * frame, or zero if the FIFO ran dry during compression (the sender was idle: it would
         * have kept up with the packets). AdOC's {@code D = now - at block start} is then the
         * frame's size minus what the link drained during compression: positive exactly when
         * the compressor outpaces the link.
         *
         * @param atBlockStart bytes queued when the block started being compressed
         * @param whenFrameReady bytes queued when its frame was ready, not counting the frame
         * @param frameLength the frame's bytes, header included
         */
        public Builder fifoAroundFrame(long atBlockStart, long whenFrameReady, int frameLength) {
            return fifo(atBlockStart, whenFrameReady == 0 ? 0 : whenFrameReady + frameLength);
        }

        /** The block's input and stored sizes, and whether it did not shrink (see {@link Observation#incompressible()}). */
        public Builder block(int uncompressedLength, int storedLength, boolean incompressible) {
            this.uncompressedLength = uncompressedLength;
            this.storedLength = storedLength;
            this.incompressible = incompressible;
            return this;
        }

        /** See {@link Observation#compressNanos()}: already divided by the workers. */
        public Builder compressNanos(long compressNanos) {
            this.compressNanos = compressNanos;
            return this;
        }

        /** See {@link Observation#cpuNanos()}: already divided by the workers; 0 (the default) if not measured. */
        public Builder cpuNanos(long cpuNanos) {
            this.cpuNanos = cpuNanos;
            return this;
        }

        /**
         * See {@link Observation#workers()}; default 1.
         *
         * @throws IllegalArgumentException if {@code workers} is below 1
         */
        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, was " + workers);
            }
            this.workers = workers;
            return this;
        }

        /** See {@link Observation#drainedBytes()}. */
        public Builder drainedBytes(long drainedBytes) {
            this.drainedBytes = drainedBytes;
            return this;
        }

        /** See {@link Observation#nanoTime()}. */
        public Builder nanoTime(long nanoTime) {
            this.nanoTime = nanoTime;
            return this;
        }

        /**
         * See {@link Observation#writerWaitNanos()}; default 0.
         *
         * @throws IllegalArgumentException if {@code nanos} is negative
         */
        public Builder writerWaitNanos(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("writerWaitNanos must not be negative, was " + nanos);
            }
            this.writerWaitNanos = nanos;
            return this;
        }

        /** See {@link Observation#link()}; default {@link LinkSample#NONE}. */
        public Builder link(LinkSample link) {
            this.link = java.util.Objects.requireNonNull(link, "link is null");
            return this;
        }

        /** See {@link Observation#blockNumber()}. */
        public Builder blockNumber(long block) {
            this.block = block;
            return this;
        }

        /** See {@link Observation#skipped()}; default false. A skipped block is also incompressible. */
        public Builder skipped(boolean skipped) {
            this.skipped = skipped;
            return this;
        }

        /** See {@link Observation#historyStarted()}; default false. */
        public Builder historyStarted(boolean historyStarted) {
            this.historyStarted = historyStarted;
            return this;
        }

        /** See {@link Observation#historyWithheld()}; default false. */
        public Builder historyWithheld(boolean historyWithheld) {
            this.historyWithheld = historyWithheld;
            return this;
        }

        /** The observation. */
        public Observation build() {
            return new Observation(this);
        }
    }
}
