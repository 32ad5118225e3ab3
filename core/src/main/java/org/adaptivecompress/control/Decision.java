package org.adaptivecompress.control;

import java.util.Locale;
import java.util.Objects;

/**
 * A controller's choice for the next block: the rung, the rule that chose it, and what the
 * controller believed of the link and of the rung when it chose. Immutable.
 */
public final class Decision {

    private final int rung;
    private final Reason reason;
    private final double linkBytesPerSecond;
    private final double predictedGoodput;

    /**
     * @param rung the rung of the next block, from 0
     * @param reason the rule that decided
     * @param linkBytesPerSecond the link's rate the decision assumed, in bytes per second, or NaN
     *     if the controller has no such figure (AdOC's rule, a fixed rung, a link not measured yet)
     * @param predictedGoodput input bytes per second the controller expects the rung to deliver,
     *     or NaN if it makes no prediction
     */
    public Decision(int rung, Reason reason, double linkBytesPerSecond, double predictedGoodput) {
        if (rung < 0) {
            throw new IllegalArgumentException("rung must be at least 0, was " + rung);
        }
        this.rung = rung;
        this.reason = Objects.requireNonNull(reason, "reason is null");
        this.linkBytesPerSecond = linkBytesPerSecond;
        this.predictedGoodput = predictedGoodput;
    }

    /** A decision without figures, as rules that do not model the link make it. */
    public static Decision of(int rung, Reason reason) {
        return new Decision(rung, reason, Double.NaN, Double.NaN);
    }

    /** The rung of the next block. */
    public int rung() {
        return rung;
    }

    /** The rule that decided. */
    public Reason reason() {
        return reason;
    }

    /** The link's rate the decision assumed, bytes per second; NaN if none. */
    public double linkBytesPerSecond() {
        return linkBytesPerSecond;
    }

    /** Input bytes per second the rung is expected to deliver; NaN if no prediction. */
    public double predictedGoodput() {
        return predictedGoodput;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Decision)) {
            return false;
        }
        Decision d = (Decision) o;
        return rung == d.rung && reason == d.reason && Double.compare(linkBytesPerSecond, d.linkBytesPerSecond) == 0
                && Double.compare(predictedGoodput, d.predictedGoodput) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(rung, reason, linkBytesPerSecond, predictedGoodput);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "rung %d (%s)%s%s", rung, reason,
                Double.isNaN(linkBytesPerSecond) ? "" : String.format(Locale.ROOT, ", link %.2f MB/s", linkBytesPerSecond / 1e6),
                Double.isNaN(predictedGoodput) ? "" : String.format(Locale.ROOT, ", goodput %.2f MB/s", predictedGoodput / 1e6));
    }
}
