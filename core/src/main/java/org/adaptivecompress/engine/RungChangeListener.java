package org.adaptivecompress.engine;

import org.adaptivecompress.codec.Ladder;

/**
 * Told each time the rung used for blocks changes. Called on the compressing thread, so it
 * must be quick; it must not throw.
 */
@FunctionalInterface
public interface RungChangeListener {

    /** The next block will use rung {@code to} of {@code ladder} instead of rung {@code from}. */
    void rungChanged(int from, int to, Ladder ladder);
}
