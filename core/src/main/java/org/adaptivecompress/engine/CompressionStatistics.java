package org.adaptivecompress.engine;

import java.util.Arrays;
import org.adaptivecompress.codec.Ladder;

/**
 * A snapshot of an adaptive stream's statistics: the current rung, blocks and bytes per rung,
 * totals, the FIFO depth and the workers compressing side by side. Immutable; take a new one to
 * see progress.
 */
public final class CompressionStatistics {

    private final Ladder ladder;
    private final int currentRung;
    private final long[] blocksPerRung;
    private final long[] bytesInPerRung;
    private final long[] bytesOutPerRung;
    private final long incompressibleBlocks;
    private final long recompressedBlocks;
    private final long rungChanges;
    private final long fifoBytes;
    private final int workers;

    /**
     * A snapshot of these figures, which the arrays (one entry per rung of {@code ladder}) are
     * copied from. Pipelines make them; a user reads them.
     */
    public CompressionStatistics(Ladder ladder, int currentRung, long[] blocksPerRung, long[] bytesInPerRung,
            long[] bytesOutPerRung, long incompressibleBlocks, long recompressedBlocks, long rungChanges, long fifoBytes,
            int workers) {
        this.ladder = ladder;
        this.currentRung = currentRung;
        this.blocksPerRung = blocksPerRung.clone();
        this.bytesInPerRung = bytesInPerRung.clone();
        this.bytesOutPerRung = bytesOutPerRung.clone();
        this.incompressibleBlocks = incompressibleBlocks;
        this.recompressedBlocks = recompressedBlocks;
        this.rungChanges = rungChanges;
        this.fifoBytes = fifoBytes;
        this.workers = workers;
    }

    /** The ladder the rung indexes refer to. */
    public Ladder ladder() {
        return ladder;
    }

    /** The rung the next block will use. */
    public int currentRung() {
        return currentRung;
    }

    /**
     * Blocks stored at {@code rung}; a block found incompressible counts under rung 0 (raw), and
     * a block compressed again while queued under the rung it was sent at.
     */
    public long blocks(int rung) {
        return blocksPerRung[rung];
    }

    /** Uncompressed bytes of the blocks stored at {@code rung}. */
    public long bytesIn(int rung) {
        return bytesInPerRung[rung];
    }

    /** Bytes written for the blocks stored at {@code rung}, headers included. */
    public long bytesOut(int rung) {
        return bytesOutPerRung[rung];
    }

    /** Blocks in all. */
    public long totalBlocks() {
        return Arrays.stream(blocksPerRung).sum();
    }

    /** Uncompressed bytes in all. */
    public long totalBytesIn() {
        return Arrays.stream(bytesInPerRung).sum();
    }

    /** Bytes written for blocks in all, headers included (the stream header and end marker excluded). */
    public long totalBytesOut() {
        return Arrays.stream(bytesOutPerRung).sum();
    }

    /** Blocks stored raw because they did not shrink enough (or followed such blocks). */
    public long incompressibleBlocks() {
        return incompressibleBlocks;
    }

    /**
     * Blocks whose queued frames were compressed again at a higher rung before they were sent,
     * because the link slowed after they were queued (see
     * {@link org.adaptivecompress.control.LevelController#recompressRung}).
     */
    public long recompressedBlocks() {
        return recompressedBlocks;
    }

    /** How often the rung changed. */
    public long rungChanges() {
        return rungChanges;
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

    /** The highest rung that stored at least {@code minBlocks} blocks, or -1 if none did. */
    public int highestRungWithAtLeast(long minBlocks) {
        for (int r = blocksPerRung.length - 1; r >= 0; r--) {
            if (blocksPerRung[r] >= minBlocks && blocksPerRung[r] > 0) {
                return r;
            }
        }
        return -1;
    }

    /** Per rung, e.g. {@code raw=3 lz4=10 zstd:3=5}, rungs never used left out. */
    public String blocksByRung() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < blocksPerRung.length; r++) {
            if (blocksPerRung[r] > 0) {
                sb.append(sb.length() > 0 ? " " : "").append(ladder.rung(r)).append('=').append(blocksPerRung[r]);
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "CompressionStatistics{rung=" + ladder.rung(currentRung) + ", blocks: " + blocksByRung()
                + ", in=" + totalBytesIn() + ", out=" + totalBytesOut() + ", incompressible=" + incompressibleBlocks
                + (recompressedBlocks > 0 ? ", recompressed=" + recompressedBlocks : "") + ", fifo=" + fifoBytes + (workers > 1 ? ", workers=" + workers : "") + "}";
    }
}
