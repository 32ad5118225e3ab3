package org.adaptivecompress.benchmarks.link.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.Observation;

/** Records (seconds since the transfer started, rung) each time an adaptive sender changes rung. */
public final class RungTimeline implements DecisionListener {

    /** One rung change. */
    public record Point(double seconds, int rung) {}

    private final long startNanos;
    private final List<Point> points = new ArrayList<>();
    private int rung = -1;

    /** A timeline whose clock starts at {@code startNanos} ({@link System#nanoTime()}). */
    public RungTimeline(long startNanos) {
        this.startNanos = startNanos;
    }

    /** Records the rung of the first block. */
    public synchronized void start(int first) {
        rung = first;
        points.add(new Point(0, first));
    }

    @Override
    public synchronized void decided(Observation observation, Decision decision) {
        if (decision.rung() != rung) {
            rung = decision.rung();
            points.add(new Point((System.nanoTime() - startNanos) / 1e9, rung));
        }
    }

    /** The points so far, oldest first. */
    public synchronized List<Point> points() {
        return List.copyOf(points);
    }

    /** {@code seconds:rung,...}, or {@code -} for none: how the sender reports them. */
    public static String encode(List<Point> points) {
        if (points.isEmpty()) {
            return "-";
        }
        StringBuilder s = new StringBuilder();
        for (Point p : points) {
            s.append(s.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6f:%d", p.seconds(), p.rung()));
        }
        return s.toString();
    }

    /** The points {@link #encode} wrote. */
    public static List<Point> decode(String text) {
        List<Point> points = new ArrayList<>();
        if (!text.equals("-")) {
            for (String p : text.split(",")) {
                int colon = p.indexOf(':');
                points.add(new Point(Double.parseDouble(p.substring(0, colon)), Integer.parseInt(p.substring(colon + 1))));
            }
        }
        return List.copyOf(points);
    }
}
