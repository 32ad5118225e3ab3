package org.adaptivecompress.benchmarks.link;

import java.util.List;

/**
 * The yardstick for the step and changing-data cells: the time a sender would take that knew in
 * advance which fixed rung is fastest on each stretch of the input (each kind of data, each link
 * rate) and switched at exactly the right byte. Each stretch is timed alone with every fixed
 * rung and the fastest kept; the sum is what perfect switching could reach. A yardstick, not a
 * strict bound: it leaves out the overlap a real pipeline gains at each seam (a FIFO's worth of
 * blocks) and pays each stretch's start-up, so it means most where stretches take seconds.
 *
 * @param cell the cell this bounds
 * @param seconds the sum over stretches of the fastest fixed rung's time, scaled to the input's length
 * @param choices the fastest rung per stretch, in order
 */
public record PerSegmentBest(Measurement.Cell cell, double seconds, List<String> choices) {

    /**
     * A stretch of the input's block sent at one rate.
     *
     * @param from first byte
     * @param to one past the last byte
     * @param bytesPerSecond the link rate over this stretch
     */
    public record Segment(int from, int to, long bytesPerSecond) {}
}
