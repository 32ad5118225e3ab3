package org.adaptivecompress.engine;

import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.control.Reason;

/**
 * A snapshot of an adaptive stream's statistics, or of a group's sum (see
 * {@link org.adaptivecompress.metrics.StatisticsGroup}): the current rung, blocks and bytes per
 * rung, the controller's decisions by reason, the link's estimated rate, the FIFO depth and the
 * workers compressing side by side. Immutable; take a new one to see progress, and
 * {@link #bytesInPerSecondSince} to turn two into a rate.
 *
 * <p>Two views of the blocks: {@link #blocks(int)} and its byte figures are <em>net</em>, what
 * the receiver gets, so a block compressed again while it was queued (because the link slowed,
 * see {@link #recompressedBlocks()}) counts only at its final rung. The <em>stored</em> figures
 * ({@link #blocksStored(int)} and so on) never decrease, as a metrics counter must not: such a
 * block counts at every rung it was stored at, and the {@link #blocksReplaced(int) replaced}
 * figures count the frames that were replaced, so that net = stored - replaced.
 */
public final class CompressionStatistics {

    private static final Reason[] REASONS = Reason.values();

    private final Ladder ladder;
    private final int currentRung;
    private final long[] streamsAtRung;
    private final long[] blocksStored;
    private final long[] bytesInStored;
    private final long[] bytesOutStored;
    private final long[] blocksReplaced;
    private final long[] bytesInReplaced;
    private final long[] bytesOutReplaced;
    private final long[] decisions;
    private final long incompressibleBlocks;
    private final long cpuNanos;
    private final long rungChanges;
    private final long fifoBytes;
    private final int workers;
    private final double linkBytesPerSecond;
    private final long startNanos;
    private final long nanoTime;
    private final long historyNativeBytes;
    private final long historyHeapBytes;

    private CompressionStatistics(Builder b, long[] streamsAtRung) {
        this.ladder = b.ladder;
        this.currentRung = b.currentRung;
        this.streamsAtRung = streamsAtRung;
        this.blocksStored = b.blocksStored;
        this.bytesInStored = b.bytesInStored;
        this.bytesOutStored = b.bytesOutStored;
        this.blocksReplaced = b.blocksReplaced;
        this.bytesInReplaced = b.bytesInReplaced;
        this.bytesOutReplaced = b.bytesOutReplaced;
        this.decisions = b.decisions;
        this.incompressibleBlocks = b.incompressibleBlocks;
        this.cpuNanos = b.cpuNanos;
        this.rungChanges = b.rungChanges;
        this.fifoBytes = b.fifoBytes;
        this.workers = b.workers;
        this.linkBytesPerSecond = b.linkBytesPerSecond;
        this.historyNativeBytes = b.historyNativeBytes;
        this.historyHeapBytes = b.historyHeapBytes;
        this.startNanos = b.startNanos;
        this.nanoTime = System.nanoTime();
    }

    /**
     * A builder of one stream's snapshot over {@code ladder}, started at {@code startNanos} (a
     * {@link System#nanoTime()}), every count 0 until set. Pipelines make snapshots; a user
     * reads them.
     */
    public static Builder builder(Ladder ladder, long startNanos) {
        return new Builder(ladder, startNanos);
    }

    /**
     * The sum of the streams {@code open}, which are running, and of {@code finished}, the sum
     * of streams that have ended: every count adds up; the FIFO bytes, the workers and the
     * streams per rung add up over the open streams only, and the link's rate is the mean over
     * the open streams that have one, and the histories' memory adds up over the open streams.
     * Its current rung is the one most open streams are at (the lowest of a tie; 0 with none
     * open). All must share {@code ladder}.
     *
     * @param finished the sum of the ended streams, or null for none
     * @param startNanos the {@link System#nanoTime()} the group started at
     * @throws IllegalArgumentException if a snapshot has another ladder
     */
    public static CompressionStatistics sum(Ladder ladder, Collection<CompressionStatistics> open,
            CompressionStatistics finished, long startNanos) {
        int n = ladder.size();
        long[][] perRung = new long[6][n];
        long[] decisions = new long[REASONS.length];
        long[] streams = new long[n];
        long incompressible = 0;
        long cpu = 0;
        long changes = 0;
        long fifo = 0;
        int workers = 0;
        long historyNative = 0;
        long historyHeap = 0;
        double linkSum = 0;
        int linkCount = 0;
        for (CompressionStatistics s : open) {
            s.addCountsTo(ladder, perRung, decisions);
            incompressible += s.incompressibleBlocks;
            cpu += s.cpuNanos;
            changes += s.rungChanges;
            for (int r = 0; r < n; r++) {
                streams[r] += s.streamsAtRung[r];
            }
            fifo += s.fifoBytes;
            workers += s.workers;
            historyNative += s.historyNativeBytes;
            historyHeap += s.historyHeapBytes;
            if (!Double.isNaN(s.linkBytesPerSecond)) {
                linkSum += s.linkBytesPerSecond;
                linkCount++;
            }
        }
        if (finished != null) {
            finished.addCountsTo(ladder, perRung, decisions);
            incompressible += finished.incompressibleBlocks;
            cpu += finished.cpuNanos;
            changes += finished.rungChanges;
        }
        int mostCommon = 0;
        for (int r = 1; r < n; r++) {
            if (streams[r] > streams[mostCommon]) {
                mostCommon = r;
            }
        }
        Builder sum = builder(ladder, startNanos).currentRung(mostCommon).incompressibleBlocks(incompressible)
                .cpuNanos(cpu).rungChanges(changes).fifoBytes(fifo).workers(workers)
                .linkBytesPerSecond(linkCount == 0 ? Double.NaN : linkSum / linkCount)
                .historyMemory(historyNative, historyHeap);
        sum.blocksStored = perRung[0];
        sum.bytesInStored = perRung[1];
        sum.bytesOutStored = perRung[2];
        sum.blocksReplaced = perRung[3];
        sum.bytesInReplaced = perRung[4];
        sum.bytesOutReplaced = perRung[5];
        sum.decisions = decisions;
        return new CompressionStatistics(sum, streams);
    }

    private void addCountsTo(Ladder expected, long[][] perRung, long[] decisionSums) {
        if (!ladder.equals(expected)) {
            throw new IllegalArgumentException("statistics of ladder " + ladder + " cannot be summed with " + expected);
        }
        long[][] mine = {blocksStored, bytesInStored, bytesOutStored, blocksReplaced, bytesInReplaced, bytesOutReplaced};
        for (int k = 0; k < mine.length; k++) {
            for (int r = 0; r < mine[k].length; r++) {
                perRung[k][r] += mine[k][r];
            }
        }
        for (int i = 0; i < decisions.length; i++) {
            decisionSums[i] += decisions[i];
        }
    }

    /** The ladder the rung indexes refer to. */
    public Ladder ladder() {
        return ladder;
    }

    /** The rung the next block will use; for a group, the rung most of its open streams are at. */
    public int currentRung() {
        return currentRung;
    }

    /** Streams whose next block will use {@code rung}: for one stream, 1 at its current rung. */
    public long streamsAt(int rung) {
        return streamsAtRung[rung];
    }

    /** Streams summed that are running (1 for one stream's snapshot). */
    public long streams() {
        return Arrays.stream(streamsAtRung).sum();
    }

    /**
     * Blocks the receiver gets at {@code rung}: a block found incompressible counts under rung
     * 0 (raw), and a block compressed again while queued under the rung it was sent at.
     */
    public long blocks(int rung) {
        return blocksStored[rung] - blocksReplaced[rung];
    }

    /** Uncompressed bytes of the blocks the receiver gets at {@code rung}. */
    public long bytesIn(int rung) {
        return bytesInStored[rung] - bytesInReplaced[rung];
    }

    /** Bytes written for the blocks the receiver gets at {@code rung}, headers included. */
    public long bytesOut(int rung) {
        return bytesOutStored[rung] - bytesOutReplaced[rung];
    }

    /** Blocks ever stored at {@code rung}, a frame compressed again later included; never decreases. */
    public long blocksStored(int rung) {
        return blocksStored[rung];
    }

    /** Uncompressed bytes of the blocks ever stored at {@code rung}; never decreases. */
    public long bytesInStored(int rung) {
        return bytesInStored[rung];
    }

    /** Bytes of the frames ever stored at {@code rung}, headers included; never decreases. */
    public long bytesOutStored(int rung) {
        return bytesOutStored[rung];
    }

    /** Frames stored at {@code rung} and replaced before they were sent, by compressing their block again. */
    public long blocksReplaced(int rung) {
        return blocksReplaced[rung];
    }

    /** Uncompressed bytes of the frames stored at {@code rung} and replaced. */
    public long bytesInReplaced(int rung) {
        return bytesInReplaced[rung];
    }

    /** Bytes of the frames stored at {@code rung} and replaced, headers included. */
    public long bytesOutReplaced(int rung) {
        return bytesOutReplaced[rung];
    }

    /** Blocks in all. */
    public long totalBlocks() {
        return Arrays.stream(blocksStored).sum() - Arrays.stream(blocksReplaced).sum();
    }

    /** Uncompressed bytes in all. */
    public long totalBytesIn() {
        return Arrays.stream(bytesInStored).sum() - Arrays.stream(bytesInReplaced).sum();
    }

    /** Bytes written for blocks in all, headers included (the stream header and end marker excluded). */
    public long totalBytesOut() {
        return Arrays.stream(bytesOutStored).sum() - Arrays.stream(bytesOutReplaced).sum();
    }

    /**
     * Blocks that did not shrink enough (stored raw, or kept in their history at about their
     * size), or were stored raw untried after such blocks.
     */
    public long incompressibleBlocks() {
        return incompressibleBlocks;
    }

    /**
     * Blocks whose queued frames were compressed again at a higher rung before they were sent,
     * because the link slowed after they were queued (see
     * {@link org.adaptivecompress.control.LevelController#recompressRung}).
     */
    public long recompressedBlocks() {
        return Arrays.stream(blocksReplaced).sum();
    }

    /**
     * CPU time, in nanoseconds, the stream's threads spent on the blocks a codec compressed
     * (codec, copy and checksum), measured on their CPU clocks; compressing queued frames again
     * included. Blocks stored raw without trying a codec count none: reading the clock would
     * cost a raw block a tenth of its time.
     */
    public long cpuNanos() {
        return cpuNanos;
    }

    /**
     * The cores compression used on average since the stream (or group) started:
     * {@link #cpuNanos()} over {@link #elapsedNanos()}. The figure a {@code cpu-budget}
     * objective bounds. NaN if no time passed.
     */
    public double compressionCores() {
        return rate(cpuNanos, elapsedNanos()) / 1e9;
    }

    /**
     * What the stream (or group) has cost so far at {@code objective}'s prices: the bytes it
     * wrote at the egress price plus the compression CPU ({@link #cpuNanos()}) at the CPU price;
     * the figure a {@code cost} objective minimises. The receiver's decoding is not counted.
     * 0 for an objective without prices.
     */
    public double cost(Objective objective) {
        return objective.pricePerGigabyte() * totalBytesOut() / 1e9 + objective.pricePerCpuSecond() * cpuNanos / 1e9;
    }

    /** How often the rung changed. */
    public long rungChanges() {
        return rungChanges;
    }

    /** Decisions the controller made for the reason {@code reason}: one per block. */
    public long decisions(Reason reason) {
        return decisions[reason.ordinal()];
    }

    /** The decisions by reason, reasons never given left out. */
    public Map<Reason, Long> decisionsByReason() {
        Map<Reason, Long> m = new EnumMap<>(Reason.class);
        for (Reason r : REASONS) {
            if (decisions[r.ordinal()] > 0) {
                m.put(r, decisions[r.ordinal()]);
            }
        }
        return m;
    }

    /**
     * The link's rate, bytes per second, that the controller's last decision which had one
     * assumed (see {@link org.adaptivecompress.control.Decision#linkBytesPerSecond()}); NaN if
     * none had one yet, or the controller does not model the link (AdOC's rule, a fixed rung).
     * For a group, the mean over its open streams.
     */
    public double linkBytesPerSecond() {
        return linkBytesPerSecond;
    }

    /** Bytes waiting in the FIFO at the last decision. */
    public long fifoBytes() {
        return fifoBytes;
    }

    /**
     * How many workers compressed side by side when the last block was dispatched: 1 unless the
     * stream compresses in parallel, where the stream's tuner moves it with the goodput.
     */
    public int workers() {
        return workers;
    }

    /**
     * Native memory, in bytes, the stream's histories hold in the writer (see
     * {@link AdaptiveCompressionOptions#history()}): each zstd history's window, match tables
     * and buffers, estimated from its parameters, since the library cannot ask zstd; 0 without
     * histories. For a group, the sum over its open streams.
     */
    public long historyNativeBytes() {
        return historyNativeBytes;
    }

    /**
     * Heap, in bytes, the stream's histories hold in the writer: each xz history's dictionary and
     * match finder (as xz-java estimates them) and the stream's last bytes, which histories are
     * primed from; 0 without histories. For a group, the sum over its open streams.
     */
    public long historyHeapBytes() {
        return historyHeapBytes;
    }

    /** Nanoseconds from the stream's (or group's) start to this snapshot. */
    public long elapsedNanos() {
        return nanoTime - startNanos;
    }

    /**
     * Uncompressed bytes per second between {@code earlier}, a snapshot of the same stream, and
     * this one; since the stream started if {@code earlier} is null. NaN if no time passed.
     */
    public double bytesInPerSecondSince(CompressionStatistics earlier) {
        return earlier == null ? rate(totalBytesIn(), elapsedNanos())
                : rate(totalBytesIn() - earlier.totalBytesIn(), nanoTime - earlier.nanoTime);
    }

    /** Like {@link #bytesInPerSecondSince}, for the bytes written. */
    public double bytesOutPerSecondSince(CompressionStatistics earlier) {
        return earlier == null ? rate(totalBytesOut(), elapsedNanos())
                : rate(totalBytesOut() - earlier.totalBytesOut(), nanoTime - earlier.nanoTime);
    }

    private static double rate(long bytes, long nanos) {
        return nanos <= 0 ? Double.NaN : bytes * 1e9 / nanos;
    }

    /** The highest rung that stored at least {@code minBlocks} blocks, or -1 if none did. */
    public int highestRungWithAtLeast(long minBlocks) {
        for (int r = blocksStored.length - 1; r >= 0; r--) {
            if (blocks(r) >= minBlocks && blocks(r) > 0) {
                return r;
            }
        }
        return -1;
    }

    /** Per rung, e.g. {@code raw=3 lz4=10 zstd:3=5}, rungs never used left out. */
    public String blocksByRung() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < blocksStored.length; r++) {
            if (blocks(r) > 0) {
                sb.append(sb.length() > 0 ? " " : "").append(ladder.rung(r)).append('=').append(blocks(r));
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        long recompressed = recompressedBlocks();
        return "CompressionStatistics{rung=" + ladder.rung(currentRung) + ", blocks: " + blocksByRung()
                + ", in=" + totalBytesIn() + ", out=" + totalBytesOut() + ", incompressible=" + incompressibleBlocks
                + (recompressed > 0 ? ", recompressed=" + recompressed : "") + ", fifo=" + fifoBytes
                + (workers > 1 ? ", workers=" + workers : "")
                + (historyNativeBytes + historyHeapBytes > 0
                        ? ", histories: native=" + historyNativeBytes + " heap=" + historyHeapBytes : "") + "}";
    }

    /**
     * Builds one stream's {@link CompressionStatistics}; the per-rung arrays have one entry per
     * rung of the ladder (see the class comment) and are copied, the decisions one per
     * {@link Reason} in declaration order. Every setter checks its argument at once.
     */
    public static final class Builder {
        private final Ladder ladder;
        private final long startNanos;
        private int currentRung;
        private long[] blocksStored;
        private long[] bytesInStored;
        private long[] bytesOutStored;
        private long[] blocksReplaced;
        private long[] bytesInReplaced;
        private long[] bytesOutReplaced;
        private long[] decisions = new long[REASONS.length];
        private long incompressibleBlocks;
        private long cpuNanos;
        private long rungChanges;
        private long fifoBytes;
        private int workers = 1;
        private double linkBytesPerSecond = Double.NaN;
        private long historyNativeBytes;
        private long historyHeapBytes;

        private Builder(Ladder ladder, long startNanos) {
            this.ladder = Objects.requireNonNull(ladder, "ladder is null");
            this.startNanos = startNanos;
            int n = ladder.size();
            blocksStored = new long[n];
            bytesInStored = new long[n];
            bytesOutStored = new long[n];
            blocksReplaced = new long[n];
            bytesInReplaced = new long[n];
            bytesOutReplaced = new long[n];
        }

        /** The rung the next block will use; 0 by default. */
        public Builder currentRung(int currentRung) {
            if (currentRung < 0 || currentRung > ladder.top()) {
                throw new IllegalArgumentException("currentRung " + currentRung + " is not a rung of " + ladder);
            }
            this.currentRung = currentRung;
            return this;
        }

        /** Blocks, uncompressed bytes and frame bytes ever stored at each rung. */
        public Builder stored(long[] blocks, long[] bytesIn, long[] bytesOut) {
            blocksStored = perRung(blocks, "blocks stored");
            bytesInStored = perRung(bytesIn, "bytes in stored");
            bytesOutStored = perRung(bytesOut, "bytes out stored");
            return this;
        }

        /** Blocks, uncompressed bytes and frame bytes stored at each rung and replaced by compressing again. */
        public Builder replaced(long[] blocks, long[] bytesIn, long[] bytesOut) {
            blocksReplaced = perRung(blocks, "blocks replaced");
            bytesInReplaced = perRung(bytesIn, "bytes in replaced");
            bytesOutReplaced = perRung(bytesOut, "bytes out replaced");
            return this;
        }

        /** The controller's decisions per {@link Reason}, in declaration order. */
        public Builder decisionsPerReason(long[] decisionsPerReason) {
            if (decisionsPerReason.length != REASONS.length) {
                throw new IllegalArgumentException("decisionsPerReason has " + decisionsPerReason.length
                        + " entries, not one per reason (" + REASONS.length + ")");
            }
            this.decisions = decisionsPerReason.clone();
            return this;
        }

        /** See {@link CompressionStatistics#incompressibleBlocks()}. */
        public Builder incompressibleBlocks(long blocks) {
            this.incompressibleBlocks = blocks;
            return this;
        }

        /** See {@link CompressionStatistics#cpuNanos()}: compressing again included. */
        public Builder cpuNanos(long nanos) {
            this.cpuNanos = nanos;
            return this;
        }

        /** See {@link CompressionStatistics#rungChanges()}. */
        public Builder rungChanges(long changes) {
            this.rungChanges = changes;
            return this;
        }

        /** See {@link CompressionStatistics#fifoBytes()}. */
        public Builder fifoBytes(long bytes) {
            this.fifoBytes = bytes;
            return this;
        }

        /** See {@link CompressionStatistics#workers()}; 1 by default. */
        public Builder workers(int workers) {
            this.workers = workers;
            return this;
        }

        /** The last link rate a decision assumed, NaN (the default) if none did yet. */
        public Builder linkBytesPerSecond(double bytesPerSecond) {
            this.linkBytesPerSecond = bytesPerSecond;
            return this;
        }

        /** See {@link CompressionStatistics#historyNativeBytes()} and {@link CompressionStatistics#historyHeapBytes()}. */
        public Builder historyMemory(long nativeBytes, long heapBytes) {
            if (nativeBytes < 0 || heapBytes < 0) {
                throw new IllegalArgumentException("history memory must not be negative, was " + nativeBytes
                        + " native and " + heapBytes + " heap");
            }
            this.historyNativeBytes = nativeBytes;
            this.historyHeapBytes = heapBytes;
            return this;
        }

        /** The snapshot, taken now. */
        public CompressionStatistics build() {
            long[] streams = new long[ladder.size()];
            streams[currentRung] = 1;
            return new CompressionStatistics(this, streams);
        }

        private long[] perRung(long[] values, String name) {
            if (values.length != ladder.size()) {
                throw new IllegalArgumentException(name + " has " + values.length + " entries, not one per rung of "
                        + ladder);
            }
            return values.clone();
        }
    }
}
