package org.adaptivecompress.benchmarks.link;

import java.util.Locale;
import java.util.Optional;

/**
 * One time over another, which a deadline may have turned into a bound: a contender cut off took
 * longer than its deadline, so a time over it is at most, and its time over another at least, the
 * quotient of the known numbers.
 *
 * @param value the quotient of the known numbers, NaN if there are none
 * @param bound what the quotient says
 */
record Ratio(double value, Bound bound) {

    /** What a ratio says about the true quotient. */
    enum Bound {
        /** It is the quotient. */
        EXACT,
        /** The quotient is at most this (the reference was cut off). */
        AT_MOST,
        /** The quotient is at least this (the contender was cut off). */
        AT_LEAST,
        /** Nothing is known (both cut off, or one failed or missing). */
        UNKNOWN
    }

    static final Ratio UNKNOWN = new Ratio(Double.NaN, Bound.UNKNOWN);

    /** {@code m}'s time over {@code reference}'s. */
    static Ratio of(Optional<Measurement> m, Optional<Measurement> reference) {
        if (m.isEmpty() || reference.isEmpty()) {
            return UNKNOWN;
        }
        Measurement.Run a = m.get().run();
        Measurement.Run b = reference.get().run();
        if (a.finished() && b.finished()) {
            return new Ratio(a.seconds() / b.seconds(), Bound.EXACT);
        }
        if (a.finished() && b.aborted()) {
            return new Ratio(a.seconds() / b.seconds(), Bound.AT_MOST);
        }
        if (a.aborted() && b.finished()) {
            return new Ratio(a.seconds() / b.seconds(), Bound.AT_LEAST);
        }
        return UNKNOWN;
    }

    /** Whether the true quotient is known to be at most {@code limit}. */
    boolean atMost(double limit) {
        return (bound == Bound.EXACT || bound == Bound.AT_MOST) && value <= limit;
    }

    /** The reference's time over the contender's: the contender's throughput relative to the reference's. */
    Ratio inverse() {
        Bound b = switch (bound) {
            case AT_MOST -> Bound.AT_LEAST;
            case AT_LEAST -> Bound.AT_MOST;
            default -> bound;
        };
        return new Ratio(1 / value, b);
    }

    /** Whether the true quotient is known to be at least {@code limit}. */
    boolean atLeast(double limit) {
        return (bound == Bound.EXACT || bound == Bound.AT_LEAST) && value >= limit;
    }

    /** {@code 0.98}, {@code <0.40}, {@code >1.80} or {@code n/a}. */
    String format() {
        String v = String.format(Locale.ROOT, "%.2f", value);
        return switch (bound) {
            case EXACT -> v;
            case AT_MOST -> "<" + v;
            case AT_LEAST -> ">" + v;
            case UNKNOWN -> "n/a";
        };
    }
}
