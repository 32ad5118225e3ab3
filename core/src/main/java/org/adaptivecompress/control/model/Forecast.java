package org.adaptivecompress.control.model;

/**
 * The goodput each rung would deliver, input bytes per second: the slower of what the writing
 * side compresses ({@link WriterCost} around the rung's speed) and what the link carries at the
 * rung's ratio. The rule of Omote et al. (2013): the right codec is the one whose speed just
 * exceeds the link's rate times its ratio. And the goodput of a mix of two neighbouring rungs,
 * which beats both where one is held back by the link and the other by the codec.
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

    Forecast(RungModel rungs, WriterCost writer) {
        this.rungs = rungs;
        this.writer = writer;
    }

    /** Input bytes per second the writing side sustains at rung {@code r}. */
    double writerSpeed(int r) {
        return writer.speed(rungs.speed(r));
    }

    /** Input bytes per second rung {@code r} delivers over a link of {@code link} bytes per second. */
    double goodput(int r, double link) {
        return Math.min(writerSpeed(r), link * rungs.ratio(r));
    }

    /** The rung in {@code [0, top]} that delivers the most over {@code link}; the lower one on a tie. */
    int best(double link, int top) {
        int best = 0;
        double most = goodput(0, link);
        for (int r = 1; r <= top; r++) {
            double g = goodput(r, link);
            if (g > most) {
                best = r;
                most = g;
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
        return new Mix(lower, upper, share, 1 / ((1 - share) * codecLower + share * codecUpper));
    }
}
