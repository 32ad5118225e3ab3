package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Objective;

/**
 * The goodput each rung would deliver, input bytes per second: the slower of what the writing
 * side compresses ({@link WriterCost} around the rung's speed) and what the link carries at the
 * rung's ratio. The rule of Omote et al. (2013): the right codec is the one whose speed just
 * exceeds the link's rate times its ratio. And the goodput of a mix of two neighbouring rungs,
 * which beats both where one is held back by the link and the other by the codec.
 *
 * <p>Rungs are ranked under the stream's {@link Objective}: {@link #admissible} says which may
 * be chosen (all for time; those whose compression fits the CPU budget at the rate they
 * deliver, and raw; those that reach the cost objective's rate floor), and {@link #score}
 * orders them (goodput; for cost, input bytes per unit of money).
 */
final class Forecast {

    /** A mix of rung {@code upper} into rung {@code lower} at {@code share} of blocks, and its goodput. */
    static final class Mix {
        private final int lower;
        private final int upper;
        private final double share;
        private final double goodput;

        Mix(int lower, int upper, double share, double goodput) {
            this.lower = lower;
            this.upper = upper;
            this.share = share;
            this.goodput = goodput;
        }

        int lower() {
            return lower;
        }

        int upper() {
            return upper;
        }

        /** The share of blocks at the upper rung. */
        double share() {
            return share;
        }

        double goodput() {
            return goodput;
        }
    }

    private final RungModel rungs;
    private final WriterCost writer;
    private final Objective objective;
    /** The input bytes per second a rung must deliver to be chosen for cost; a deadline moves it. */
    private double floor;
    /**
     * Under a CPU budget, the core-seconds of budget not spent so far, at most
     * {@link #CPU_CREDIT_SECONDS} seconds of the budget: while some is left, any rung may be
     * chosen, so the budget holds on average (as users state it) rather than block by block.
     */
    private double cpuCredit;
    private long lastNanos = Long.MIN_VALUE;

    /**
     * How much unspent budget may be banked: a second of it, so a stretch of cheap blocks buys
     * at most a second's worth of dearer ones and the budget holds over any second or two.
     */
    static final double CPU_CREDIT_SECONDS = 1;

    Forecast(RungModel rungs, WriterCost writer, Objective objective) {
        this.rungs = rungs;
        this.writer = writer;
        this.objective = objective;
        this.floor = objective.floorBytesPerSecond();
    }

    /**
     * Books a block's compression CPU against the budget at {@code nowNanos}: the budget accrues
     * with time, what the block used is taken off.
     */
    void spend(long cpuNanos, long nowNanos) {
        if (objective.kind() != Objective.Kind.CPU_BUDGET) {
            return;
        }
        double accrued = lastNanos == Long.MIN_VALUE ? 0 : objective.cores() * (nowNanos - lastNanos) / 1e9;
        lastNanos = nowNanos;
        cpuCredit = Math.min(objective.cores() * CPU_CREDIT_SECONDS, cpuCredit + accrued - cpuNanos / 1e9);
    }

    /** Tells the forecast how far the transfer is, which moves a deadline's rate floor. */
    void progress(long bytesSoFar, long elapsedNanos) {
        floor = objective.floorBytesPerSecond(bytesSoFar, elapsedNanos);
    }

    /** Input bytes per second the writing side sustains at rung {@code r}. */
    double writerSpeed(int r) {
        return writer.speed(rungs.speed(r));
    }

    /** Input bytes per second rung {@code r} delivers over a link of {@code link} bytes per second. */
    double goodput(int r, double link) {
        return Math.min(writerSpeed(r), link * rungs.ratio(r));
    }

    /**
     * The cores rung {@code r}'s compression uses at the rate it delivers over {@code link}: its
     * goodput over its codec's speed per second of CPU. A rung the link holds back uses only what
     * the link lets it.
     */
    double cores(int r, double link) {
        return goodput(r, link) / rungs.cpuSpeed(r);
    }

    /**
     * Whether the objective depends on how fast the link is: not for cost without a rate floor,
     * whose ranking is the same over any link.
     */
    boolean valuesRate() {
        return objective.kind() != Objective.Kind.COST || objective.floorBytesPerSecond() > 0
                || objective.hasDeadline();
    }

    /** Whether the objective lets rung {@code r} be chosen over {@code link}. */
    boolean admissible(int r, double link) {
        switch (objective.kind()) {
            case CPU_BUDGET:
                return r == 0 || cpuCredit > 0 || cores(r, link) <= objective.cores();
            case COST:
                return floor == 0 || goodput(r, link) >= floor;
            default:
                return true;
        }
    }

    /** How good rung {@code r} is under the objective, the higher the better: goodput, or for cost input bytes per unit of money. */
    double score(int r, double link) {
        return objective.kind() == Objective.Kind.COST
                ? 1 / objective.costPerInputByte(rungs.ratio(r), rungs.cpuSpeed(r), rungs.decodeSpeed(r))
                : goodput(r, link);
    }

    /**
     * The admissible rung in {@code [0, top]} that scores best over {@code link}, the lower one
     * on a tie; if none is admissible (no rung reaches a cost floor), the one that delivers the most.
     */
    int best(double link, int top) {
        int best = -1;
        double most = Double.NEGATIVE_INFINITY;
        for (int r = 0; r <= top; r++) {
            double score = score(r, link);
            if (admissible(r, link) && score > most) {
                best = r;
                most = score;
            }
        }
        return best >= 0 ? best : fastest(link, top);
    }

    private int fastest(double link, int top) {
        int best = 0;
        for (int r = 1; r <= top; r++) {
            if (goodput(r, link) > goodput(best, link)) {
                best = r;
            }
        }
        return best;
    }

    /**
     * The best mix of rungs {@code lower} and {@code upper}, or {@code null} if none beats both:
     * one that has the codec as busy as the link, where {@code lower} alone is held back by the
     * link and {@code upper} alone by the codec.
     */
    Mix mix(int lower, int upper, double link) {
        if (objective.kind() == Objective.Kind.COST) {
            return null; // a mix trades the codec's time against the link's, which cost does not weigh
        }
        double codecLower = 1 / writerSpeed(lower);
        double codecUpper = 1 / writerSpeed(upper);
        double wireLower = 1 / (link * rungs.ratio(lower));
        double wireUpper = 1 / (link * rungs.ratio(upper));
        double denominator = (codecUpper - codecLower) + (wireLower - wireUpper);
        if (wireLower <= codecLower || codecUpper <= wireUpper || denominator <= 0) {
            return null;
        }
        double share = (wireLower - codecLower) / denominator;
        if (share <= 0 || share >= 1) {
            return null;
        }
        double goodput = 1 / ((1 - share) * codecLower + share * codecUpper);
        double cores = goodput * ((1 - share) / rungs.cpuSpeed(lower) + share / rungs.cpuSpeed(upper));
        if (objective.kind() == Objective.Kind.CPU_BUDGET && cores > objective.cores()) {
            return null;
        }
        return new Mix(lower, upper, share, goodput);
    }
}
