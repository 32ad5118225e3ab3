package org.adaptivecompress.internal.format;

/**
 * What a reader of this library holds at most for one stream (docs/PERFORMANCE.md, "Reader
 * memory"): a block and its payload, each up to the reader's block limit; and in a stream with
 * histories, the stream's tail and a prime buffer, plus for each history it opens a window, the
 * prime it last started from and its decoder's state. The figure a receiver budget's
 * {@code memory=} bounds, on both sides.
 */
public final class ReaderMemory {

    /** The stream's last 2 MiB, which primes start from, and the buffer a prime is loaded into. */
    private static final long STREAM_WITH_HISTORIES = 4L << 20;
    /** Beyond its window, a history holds its last prime (up to 2 MiB) and about half a megabyte of decoder state. */
    private static final long PER_HISTORY_BEYOND_WINDOW = (5L << 20) / 2;

    private ReaderMemory() {}

    /**
     * How many histories of {@code window} bytes fit in {@code memory} beside blocks up to
     * {@code blockLength}: 0 if none, at most {@link FrameFormat#MAX_HISTORIES}.
     */
    public static int historiesWithin(long memory, int blockLength, int window) {
        long left = memory - 2L * blockLength - STREAM_WITH_HISTORIES;
        if (left <= 0) {
            return 0;
        }
        return (int) Math.min(FrameFormat.MAX_HISTORIES, left / (window + PER_HISTORY_BEYOND_WINDOW));
    }
}
