package org.adaptivecompress.benchmarks.link;

/**
 * One contender's transfer in one cell.
 *
 * @param cell where it ran: scenario, data and rate
 * @param contender who sent it
 * @param inputBytes bytes of input
 * @param result the median run's time, bytes on the wire and rung changes; verified only if every run was
 * @param runs how many runs the median was taken over
 * @param extrapolated whether the time is the first block's, scaled to the input's length, because
 *     the whole input would have taken this slow contender minutes
 */
public record Measurement(Cell cell, Contender contender, long inputBytes, LinkTransfer.Result result, int runs,
        boolean extrapolated) {

    /**
     * A cell of the tables: the contenders in one cell are compared with each other.
     *
     * @param scenario {@code rate}, {@code step} or {@code cpu-contended}
     * @param data the data kind's label
     * @param rate the rate's label
     */
    public record Cell(String scenario, String data, String rate) {
        @Override
        public String toString() {
            return scenario + " " + data + " @ " + rate;
        }
    }

    /** Input megabytes per second. */
    public double megabytesPerSecond() {
        return inputBytes / 1e6 / result.seconds();
    }
}
