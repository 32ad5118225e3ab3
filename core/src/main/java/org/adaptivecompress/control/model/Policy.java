package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;

/** One rule of the {@link ModelController}: decides a block's rung, or leaves it to the next rule. */
interface Policy {

    /** The decision, or {@code null} if this rule has nothing to say about this situation. */
    Decision decide(Situation s);
}
