package org.adaptivecompress.internal.codec;

import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * The window each level of zstd and xz keeps in the native tools' streams, and so in a history:
 * a history at a rung matches as far back as {@code zstd -N} or {@code xz -N} would, up to the
 * largest window the stream allows, and a stream header declares the largest its rungs keep.
 * Also zstd's chain table per level, which a history's memory estimate needs.
 */
public final class NativeWindows {

    /**
     * Log2 of zstd's window per level 0-22 for inputs over 256 KB or of unknown size, as
     * {@code lib/compress/clevels.h} sets it; index 0 is its row for negative levels.
     */
    private static final int[] ZSTD_WINDOW_LOG = {
        19, 19, 20, 21, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 25, 26, 27};
    /** Log2 of the entries of zstd's chain table per level, rows as {@link #ZSTD_WINDOW_LOG}'s. */
    private static final int[] ZSTD_CHAIN_LOG = {
        12, 13, 15, 16, 18, 18, 18, 19, 19, 20, 21, 21, 22, 22, 22, 23, 22, 23, 23, 24, 25, 26, 27};
    /** The highest row of zstd's fast strategy, whose only match table is the hash table. */
    private static final int LAST_FAST_ROW = 2;
    /** zstd's default level, which level 0 stands for. */
    private static final int ZSTD_DEFAULT_LEVEL = 3;
    /** Log2 of xz's dictionary per preset 0-9, as {@code xz} and xz-java's {@code LZMA2Options} set it. */
    private static final int[] XZ_WINDOW_LOG = {18, 20, 21, 22, 22, 23, 23, 24, 25, 26};

    private NativeWindows() {}

    /**
     * Log2 of the window the native tool keeps at {@code rung}'s level.
     *
     * @throws IllegalArgumentException for a codec without histories
     */
    public static int nativeWindowLog(Rung rung) {
        int level = rung.level();
        switch (rung.codec()) {
            case ZSTD:
                return ZSTD_WINDOW_LOG[zstdRow(level)];
            case XZ:
                return XZ_WINDOW_LOG[Math.max(0, Math.min(level, XZ_WINDOW_LOG.length - 1))];
            default:
                throw new IllegalArgumentException(rung + " keeps no history");
        }
    }

    /**
     * Log2 of the entries of zstd's chain table at {@code level} for large inputs; 0 for the
     * levels of the fast strategy, which have none.
     */
    static int zstdChainLog(int level) {
        int row = zstdRow(level);
        return row <= LAST_FAST_ROW ? 0 : ZSTD_CHAIN_LOG[row];
    }

    /** The row of zstd's level table for {@code level}: 0 for negative levels, the default's for 0. */
    private static int zstdRow(int level) {
        return level < 0 ? 0 : level == 0 ? ZSTD_DEFAULT_LEVEL : Math.min(level, ZSTD_WINDOW_LOG.length - 1);
    }

    /** Log2 of the window a history at {@code rung} keeps in a stream whose windows are at most {@code 1 << maxWindowLog}. */
    public static int historyWindowLog(Rung rung, int maxWindowLog) {
        return Math.min(maxWindowLog, nativeWindowLog(rung));
    }

    /**
     * Log2 of the window a stream header declares for histories at {@code rungs}: the largest
     * any of them keeps, at least {@link FrameFormat#MIN_WINDOW_LOG}; a reader then holds no
     * larger window than the stream uses.
     */
    public static int streamWindowLog(Iterable<Rung> rungs, int maxWindowLog) {
        int log = FrameFormat.MIN_WINDOW_LOG;
        for (Rung rung : rungs) {
            if (rung.codec().hasHistory()) {
                log = Math.max(log, historyWindowLog(rung, maxWindowLog));
            }
        }
        return log;
    }
}
