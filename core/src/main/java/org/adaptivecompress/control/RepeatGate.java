package org.adaptivecompress.control;

/**
 * Whether the data repeats beyond a block, as the histories themselves see it: lends histories
 * while blocks now and then find most of themselves in one (a <em>warm</em> block, see
 * {@link HistoryFigures#WARM_RATIO}), and withholds them once {@value #TRIAL_BLOCKS} blocks in
 * a row lent one found nothing there, or {@value #TRIAL_PLANNED_BLOCKS} planned while they were
 * lent, at any rung. On data that does not repeat beyond a block a history only
 * costs: zstd:1 streamed with a 2 MiB window compressed JSON events more slowly for the same
 * ratio, and the stream took 1.08-1.63x the time it took without histories at 10-10000 Mbit/s
 * (docs/data/link-history-intel-ae260b1.txt).
 *
 * <p>Withheld, histories are lent again for a trial after {@value #FIRST_PAUSE} blocks, a pause
 * that doubles after each trial that finds nothing (up to {@value #MAX_PAUSE} blocks), so data
 * that starts repeating later is found. The trials are the cost of that: up to
 * {@value #TRIAL_BLOCKS} blocks lent ({@value #TRIAL_PLANNED_BLOCKS} planned) after every pause.
 *
 * <p>Not thread-safe; owned by one controller.
 */
final class RepeatGate {

    /**
     * Blocks lent a history, none warm, after which histories are withheld: 2 MiB of 128 KiB
     * blocks, past the first repeats of the benchmark's text (1.2 MB in) and binaries (block 3).
     */
    static final int TRIAL_BLOCKS = 16;
    /**
     * Blocks planned while histories were lent, at any rung, none warm, after which they are
     * withheld too: a controller that prices zstd:1's history from cold JSON blocks holds LZ4,
     * and a trial counted in lent blocks alone lasted 480-510 blocks there. Four times
     * {@link #TRIAL_BLOCKS}, so that a run of random data sent raw (the changing data's second
     * quarter, 48 blocks at 100 Mbit/s) does not end a trial before the text after it.
     */
    static final int TRIAL_PLANNED_BLOCKS = 64;
    static final int FIRST_PAUSE = 32;
    static final int MAX_PAUSE = 1024;

    private boolean lends = true;
    private int lentSinceWarm;
    private int plannedSinceWarm;
    private int withheldFor;
    private int pause = FIRST_PAUSE;

    /** Whether blocks are to be lent histories now. */
    boolean lends() {
        return lends;
    }

    /**
     * Learns from one block: whether histories were lent when it was planned (false for a block
     * the link withheld one from), whether it was compressed with one, and whether it found most
     * of itself there. Blocks planned while histories were withheld count only towards the end
     * of a pause.
     */
    void observe(boolean planned, boolean lent, boolean warm) {
        if (!lends) {
            if (++withheldFor >= pause) {
                lends = true;
                lentSinceWarm = 0;
                plannedSinceWarm = 0;
                pause = Math.min(MAX_PAUSE, 2 * pause);
            }
            return;
        }
        if (!planned) {
            return;
        }
        if (warm) {
            lentSinceWarm = 0;
            plannedSinceWarm = 0;
            pause = FIRST_PAUSE;
            return;
        }
        lentSinceWarm += lent ? 1 : 0;
        if (lentSinceWarm >= TRIAL_BLOCKS || ++plannedSinceWarm >= TRIAL_PLANNED_BLOCKS) {
            lends = false;
            withheldFor = 0;
        }
    }
}
