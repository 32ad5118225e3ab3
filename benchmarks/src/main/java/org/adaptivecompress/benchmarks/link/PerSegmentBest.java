package org.adaptivecompress.benchmarks.link;

import java.util.List;

/**
 * The yardstick for the rate-step cell: the time a sender would take that knew in advance which
 * fixed rung is fastest on each stretch of the input (each link rate) and switched at exactly the
 * right byte. Each stretch is timed alone with every fixed rung and the fastest kept; the sum is
 * what perfect switching could reach. A yardstick, not a strict bound: it leaves out the overlap
 * a real pipeline gains at each seam and pays each stretch's start-up.
 *
 * @param cell the cell it is the yardstick of
 * @param segments the fastest fixed rung on each stretch, in order
 */
public record PerSegmentBest(Measurement.Cell cell, List<Best> segments) {

    /**
     * A stretch of the input sent at one rate.
     *
     * @param from first byte
     * @param to one past the last byte
     * @param bytesPerSecond the link rate over this stretch
     */
    public record Segment(long from, long to, long bytesPerSecond) {
        /** Its length in bytes. */
        public long length() {
            return to - from;
        }
    }

    /**
     * The fastest fixed rung on one stretch.
     *
     * @param segment the stretch
     * @param contender the fastest fixed rung's label, or null if none finished
     * @param seconds its time, NaN if none finished
     */
    public record Best(Segment segment, String contender, double seconds) {
        /** Input bytes per second the fastest fixed rung reached on this stretch. */
        public double goodput() {
            return segment.length() / seconds;
        }
    }

    /** The sum of the stretches' fastest times; NaN if one has none. */
    public double seconds() {
        return segments.stream().mapToDouble(Best::seconds).sum();
    }

    /** The fastest rung of each stretch, in order. */
    public List<String> choices() {
        return segments.stream().map(Best::contender).toList();
    }
}
