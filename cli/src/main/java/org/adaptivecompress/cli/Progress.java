package org.adaptivecompress.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A one-line progress bar on stderr, redrawn four times a second by a daemon thread: bytes
 * done (of the total, if known), rate, the time left at that rate (if the total is known), the
 * rung in use and the ratio so far.
 *
 * <p>Drawn only when stderr is a terminal; otherwise {@link #start} returns a bar that draws
 * nothing, so piped and scripted runs print nothing but their result.
 */
final class Progress implements AutoCloseable {

    private static final long PERIOD_MILLIS = 250;
    private static final int BAR_WIDTH = 24;

    private final PrintWriter err;
    private final Thread ticker;
    private final Line line;
    private final long startNanos = System.nanoTime();
    private volatile boolean stopped;
    private int lastLength;

    /** What one redraw shows, read from the running job. */
    static final class Line {
        final String label;
        final long total;
        final LongSupplier done;
        final LongSupplier plain;
        final LongSupplier packed;
        final Supplier<String> rung;

        /**
         * @param total input bytes expected, or -1 if unknown (stdin, a socket)
         * @param done input bytes processed so far, against {@code total}
         * @param plain uncompressed bytes so far, and {@code packed} compressed ones, for the ratio
         * @param rung the rung or codec in use
         */
        Line(String label, long total, LongSupplier done, LongSupplier plain, LongSupplier packed,
                Supplier<String> rung) {
            this.label = label;
            this.total = total;
            this.done = done;
            this.plain = plain;
            this.packed = packed;
            this.rung = rung;
        }
    }

    private Progress(PrintWriter err, Line line, boolean draw) {
        this.err = err;
        this.line = line;
        if (draw) {
            ticker = new Thread(this::tick, "adaptive-compress-progress");
            ticker.setDaemon(true);
            ticker.start();
        } else {
            ticker = null;
        }
    }

    /** Starts drawing {@code line} on {@code err} if {@code draw}; close to stop and erase it. */
    static Progress start(PrintWriter err, boolean draw, Line line) {
        return new Progress(err, line, draw);
    }

    private void tick() {
        while (!stopped) {
            String text = render(line, System.nanoTime() - startNanos);
            synchronized (this) {
                if (stopped) {
                    return;
                }
                // Pad with spaces so a shorter line fully covers the previous one.
                err.print("\r" + text + " ".repeat(Math.max(0, lastLength - text.length())));
                err.flush();
                lastLength = text.length();
            }
            try {
                TimeUnit.MILLISECONDS.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One frame of the bar, e.g. {@code compress [#####.....] 45% 12.0 MiB 4.0 MiB/s ETA 0:04 zstd:3 3.21x}. */
    static String render(Line line, long elapsedNanos) {
        long done = line.done.getAsLong();
        StringBuilder s = new StringBuilder(line.label).append(' ');
        if (line.total > 0) {
            double fraction = Math.min(1.0, done / (double) line.total);
            int filled = (int) Math.round(fraction * BAR_WIDTH);
            s.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ")
                    .append(String.format(Locale.ROOT, "%3d%% ", (int) (fraction * 100)));
        }
        double seconds = Math.max(1e-3, elapsedNanos / 1e9);
        double rate = done / seconds;
        s.append(bytes(done)).append("  ").append(bytes((long) rate)).append("/s  ");
        if (line.total > 0 && rate > 0) {
            s.append("ETA ").append(duration((long) Math.ceil(Math.max(0, line.total - done) / rate))).append("  ");
        }
        s.append(line.rung.get());
        long packed = line.packed.getAsLong();
        if (packed > 0) {
            s.append(String.format(Locale.ROOT, "  %.2fx", line.plain.getAsLong() / (double) packed));
        }
        return s.toString();
    }

    /** Seconds as {@code m:ss}, or {@code h:mm:ss} from an hour. */
    static String duration(long seconds) {
        long h = seconds / 3600;
        long m = seconds / 60 % 60;
        long sec = seconds % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec) : String.format(Locale.ROOT, "%d:%02d", m, sec);
    }

    /** Bytes in binary units, e.g. {@code 12.3 MiB}. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** Stops the ticker and erases the bar, leaving the cursor at the start of an empty line. */
    @Override
    public void close() {
        if (ticker == null) {
            return;
        }
        synchronized (this) {
            stopped = true;
            if (lastLength > 0) {
                err.print("\r" + " ".repeat(lastLength) + "\r");
                err.flush();
            }
        }
        ticker.interrupt();
    }
}
