package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Observation;

/**
 * What the writing side spends per input byte besides the codec: the application producing the
 * bytes, the stream's copies and checksums. With one compressing thread it adds to the codec's
 * time; with workers it runs beside them. Not thread-safe; owned by one controller.
 */
final class WriterCost {

    /** The weight of a new block's figure: smooths scheduling noise over a few blocks. */
    private static final double ALPHA = 0.2;

    private long lastNanoTime = Long.MIN_VALUE;
    private double nanosPerByte;
    private int workers = 1;

    /** Learns from the time between this observation and the previous one. */
    void learn(Observation o) {
        workers = o.workers();
        long previous = lastNanoTime;
        lastNanoTime = o.nanoTime();
        if (previous == Long.MIN_VALUE || o.uncompressedLength() <= 0) {
            return;
        }
        long codec = workers == 1 ? o.compressNanos() : 0;
        long own = o.nanoTime() - previous - o.writerWaitNanos() - codec;
        double perByte = Math.max(0, own) / (double) o.uncompressedLength();
        nanosPerByte += ALPHA * (perByte - nanosPerByte);
    }

    /**
     * Input bytes per second the writing side sustains with a codec of {@code codecSpeed}:
     * writer and codec in turn with one compressing thread, side by side with workers.
     */
    double speed(double codecSpeed) {
        double codecNanos = 1e9 / codecSpeed;
        double nanos = workers == 1 ? nanosPerByte + codecNanos : Math.max(nanosPerByte, codecNanos);
        return 1e9 / Math.max(nanos, 1e-3);
    }
}
