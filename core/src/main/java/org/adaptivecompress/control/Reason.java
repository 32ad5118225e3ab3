package org.adaptivecompress.control;

/**
 * Why a controller chose a block's rung: the rule that decided, as a {@link Decision} carries it
 * to a {@link DecisionListener}.
 */
public enum Reason {
    /** A fixed controller: always the same rung. */
    FIXED("pinned to one rung"),
    /** AdOC's rule: the FIFO drained over the last block, so compression is the bottleneck; rung halved. */
    ADOC_DRAINED("AdOC: the FIFO drained, rung halved"),
    /** AdOC's rule: the FIFO grew past its threshold, so the link is the bottleneck; one rung up. */
    ADOC_GREW("AdOC: the FIFO grew past its threshold, one rung up"),
    /** AdOC's rule: neither, rung kept. */
    ADOC_KEPT("AdOC: FIFO steady, rung kept"),
    /**
     * The link has not shown its rate yet: the start-up rung is kept. After such a decision an
     * {@code AdaptiveOutputStream} compresses the next block only once its sink has taken the
     * frames before it, so that few blocks carry the guess.
     */
    STARTUP("start-up: the link's rate is not known yet"),
    /** The link slowed sharply: the best rung for the slower link, at once. */
    LINK_DROPPED("the link slowed sharply"),
    /** The link sped up sharply: the best rung for the faster link, at once. */
    LINK_ROSE("the link sped up sharply"),
    /** The link outran what the stream produced: a faster rung, to find how fast the link is. */
    LINK_FASTER("the link outran the stream: trying a faster rung"),
    /** The data did not shrink: the rung is kept for when it does, and blocks go raw meanwhile. */
    INCOMPRESSIBLE("the data does not shrink"),
    /** One block at a rung whose figures on this data are old or guessed, to measure it. */
    PROBE("measuring a rung on this data"),
    /** The rung the model predicts delivers the most. */
    BEST("the rung predicted to deliver the most"),
    /** Two neighbouring rungs in turn, because a mix delivers more than either alone. */
    MIX("a mix of two rungs delivers more than either"),
    /** Another rung is predicted better, but by too little to be worth the switch. */
    KEPT("kept: no rung is predicted better by enough to switch");

    private final String description;

    Reason(String description) {
        this.description = description;
    }

    /** One line for people: what the rule saw. */
    public String description() {
        return description;
    }
}
