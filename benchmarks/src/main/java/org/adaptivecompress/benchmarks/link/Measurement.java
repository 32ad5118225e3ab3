package org.adaptivecompress.benchmarks.link;

import java.util.List;
import java.util.Locale;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.agent.RungTimeline;
import org.adaptivecompress.benchmarks.link.net.Rates;

/**
 * One contender's result in one cell: the median of its runs.
 *
 * @param cell where it ran
 * @param contender who sent
 * @param inputBytes bytes of input
 * @param run the median run (an aborted run counts as slower than any finished one)
 * @param runs how many runs the median was taken over
 */
public record Measurement(Cell cell, Contender contender, long inputBytes, Run run, int runs) {

    /** What a cell measures. */
    public enum Kind {
        /** A scenario at one constant rate. */
        RATE,
        /** The rate steps down and back up during the transfer. */
        STEP,
        /** One stretch of the step cell's input alone at its rate, for the per-segment best. */
        SEGMENT,
        /** A constant rate while another thread spins on a core. */
        BUSY;

        /** {@code rate}, {@code step}, {@code segment} or {@code busy}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The kind labelled {@code text}. */
        public static Kind parse(String text) {
            for (Kind k : values()) {
                if (k.label().equals(text.trim())) {
                    return k;
                }
            }
            throw new IllegalArgumentException("a cell is rate, step or busy, not '" + text + "'");
        }
    }

    /**
     * A cell of the tables: the contenders in one cell are compared with each other.
     *
     * @param set the scenario set's label
     * @param scenario the scenario's name
     * @param description the scenario's one-line description
     * @param kind what the cell measures
     * @param rate the rate in bytes per second (the starting rate of a step cell)
     * @param rateLabel the rate as the tables show it
     */
    public record Cell(String set, String scenario, String description, Kind kind, long rate, String rateLabel) {

        /** A rate cell. */
        public static Cell rate(String set, String scenario, String description, long rate) {
            return new Cell(set, scenario, description, Kind.RATE, rate, Rates.label(rate));
        }

        /** Whether the link was shaped. */
        public boolean throttled() {
            return rate != Rates.UNLIMITED;
        }

        @Override
        public String toString() {
            return kind.label() + " " + scenario + " @ " + rateLabel;
        }
    }

    /**
     * One transfer.
     *
     * @param seconds from the sender's first write to the receiver's last verified byte; for an
     *     aborted run, the deadline it passed (a lower bound)
     * @param wireBytes bytes the sender wrote into its socket
     * @param verified whether every byte arrived and matched
     * @param aborted whether it was cut off at its deadline
     * @param inFlightBytes the most bytes written and not yet verified at once (the plain copy's:
     *     what the kernel's buffers and queue held), else -1
     * @param rungs rung changes of our streams
     * @param blocks blocks per rung of our streams
     * @param samples seconds at which each further 128 KiB were verified, where asked for
     * @param steps seconds at which each rate change took effect, in a step cell
     * @param cpuNanos CPU time our streams' threads spent compressing, on their CPU clocks; 0 for
     *     the plain copy, -1 where unknown (native tools, runs cut off)
     */
    public record Run(double seconds, long wireBytes, boolean verified, boolean aborted, long inFlightBytes,
            List<RungTimeline.Point> rungs, long[] blocks, double[] samples, double[] steps, long cpuNanos) {

        /** A run cut off at {@code deadline} seconds after {@code wireBytes} bytes. */
        public static Run aborted(double deadline, long wireBytes) {
            return new Run(deadline, wireBytes, false, true, -1, List.of(), new long[0], new double[0], new double[0],
                    -1);
        }

        /** A run that failed without a time. */
        public static Run failed() {
            return new Run(Double.NaN, 0, false, false, -1, List.of(), new long[0], new double[0], new double[0], -1);
        }

        /** This run, marked as not verified (another run of the same measurement was not). */
        public Run unverified() {
            return new Run(seconds, wireBytes, false, aborted, inFlightBytes, rungs, blocks, samples, steps, cpuNanos);
        }

        /** Cores compression used on average over the transfer; NaN if unknown. */
        public double compressionCores() {
            return cpuNanos < 0 || !finished() ? Double.NaN : cpuNanos / 1e9 / seconds;
        }

        /** Whether it has a time: verified and not cut off. */
        public boolean finished() {
            return verified && !aborted;
        }

        /** For sorting runs: finished ones by time, then aborted ones, then failed ones. */
        double rank() {
            return finished() ? seconds : aborted ? 1e12 + seconds : Double.MAX_VALUE;
        }
    }

    /** Input megabytes per second; NaN unless finished. */
    public double megabytesPerSecond() {
        return run.finished() ? inputBytes / 1e6 / run.seconds() : Double.NaN;
    }
}
