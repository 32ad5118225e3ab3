package org.adaptivecompress.control.model;

import java.util.HashMap;
import java.util.Map;
import org.adaptivecompress.control.Observation;

/**
 * Whether a mix of two rungs delivers what the forecast promised, measured: the goodput (input
 * bytes per second) of a window at the settled rung alone, then of a window of the mix; a mix
 * that does not measure {@value #MIN_GAIN_PERCENT} % better is refuted, and that pair is not
 * mixed again for a while, twice as long each time. The forecast takes the link for a fixed
 * rate, but on a machine whose cores the link's own work shares (loopback, a sender thread and
 * the kernel copying at gigabytes a second), every block compressed slows the link it was
 * compressed for, and only a measurement shows that.
 *
 * <p>Not thread-safe; owned by one controller.
 */
final class MixTrial {

    /** A goodput window lasts this long: several of the link's spans, and scheduling noise averaged out. */
    static final long WINDOW_MILLIS = 200;
    /** A mix must measure this much above the rung alone, more than two windows' noise. */
    static final int MIN_GAIN_PERCENT = 3;
    /** A refuted pair is not tried again for this long, then twice as long after each refusal. */
    static final long FIRST_BACKOFF_MILLIS = 2_000;

    private enum Phase { MEASURING_ALONE, TRYING, ACCEPTED }

    private Phase phase = Phase.MEASURING_ALONE;
    private int alone = -1;
    private int pair = -1;
    private double aloneGoodput;
    private long windowBytes;
    private long windowNanos;
    private long lastNanoTime = Long.MIN_VALUE;
    private final Map<Integer, long[]> refused = new HashMap<>();

    /** Takes in the goodput of the block just observed. */
    void observe(Observation o) {
        long previous = lastNanoTime;
        lastNanoTime = o.nanoTime();
        if (previous != Long.MIN_VALUE) {
            windowBytes += o.uncompressedLength();
            windowNanos += Math.max(0, o.nanoTime() - previous);
        }
    }

    /**
     * Whether to mix the pair whose lower rung is {@code lower} around the settled rung
     * {@code settled} now: false while the settled rung alone is measured, or the pair is
     * refuted; true while the mix is tried or once it measured better.
     */
    boolean allows(int settled, int lower, long now) {
        long[] refusal = refused.get(lower);
        if (refusal != null && now < refusal[0]) {
            return false;
        }
        if (settled != alone || (phase != Phase.MEASURING_ALONE && lower != pair)) {
            restart(settled);
            return false;
        }
        boolean windowDone = windowNanos >= WINDOW_MILLIS * 1_000_000;
        switch (phase) {
            case MEASURING_ALONE:
                if (windowDone) {
                    aloneGoodput = goodput();
                    pair = lower;
                    phase = Phase.TRYING;
                    clearWindow();
                    return true;
                }
                return false;
            case TRYING:
                if (!windowDone) {
                    return true;
                }
                if (goodput() * 100 >= (100 + MIN_GAIN_PERCENT) * aloneGoodput) {
                    phase = Phase.ACCEPTED;
                    return true;
                }
                refuse(lower, now);
                restart(settled);
                return false;
            default:
                return true;
        }
    }

    /** No mix wanted now: the next one starts from a window of the settled rung alone. */
    void notMixing(int settled) {
        if (phase != Phase.MEASURING_ALONE || settled != alone) {
            restart(settled);
        }
    }

    private void refuse(int lower, long now) {
        long[] refusal = refused.computeIfAbsent(lower, k -> new long[] {0, FIRST_BACKOFF_MILLIS * 1_000_000 / 2});
        refusal[1] *= 2;
        refusal[0] = now + refusal[1];
    }

    private void restart(int settled) {
        alone = settled;
        pair = -1;
        phase = Phase.MEASURING_ALONE;
        clearWindow();
    }

    private double goodput() {
        return windowNanos == 0 ? 0 : windowBytes * 1e9 / windowNanos;
    }

    private void clearWindow() {
        windowBytes = 0;
        windowNanos = 0;
    }
}
