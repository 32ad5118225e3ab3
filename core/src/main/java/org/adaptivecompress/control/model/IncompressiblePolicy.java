package org.adaptivecompress.control.model;

import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.Reason;

/**
 * While the data does not shrink, keeps the rung the stream had settled on (at least the first
 * codec above raw), so the engine stores blocks raw and retries that rung now and then (see
 * {@link org.adaptivecompress.control.LevelController#skipAfterIncompressible()}): at raw
 * nothing would ever find out that the data shrinks again.
 */
final class IncompressiblePolicy implements Policy {

    @Override
    public Decision decide(Situation s) {
        if (!s.rungs().incompressible()) {
            return null;
        }
        return s.decision(Math.max(s.home(), Math.min(1, s.top())), Reason.INCOMPRESSIBLE, s.link().rate());
    }
}
