package org.adaptivecompress.benchmarks.link.agent;

import java.util.Arrays;
import org.adaptivecompress.benchmarks.scenario.Scenario;

/**
 * An agent's prepared input: the bytes of the scenario last asked for, kept so the cells of one
 * scenario (rate after rate, run after run) generate them once. A scenario's shorter input is a
 * prefix of its longer one, so the longest generated so far serves every shorter request.
 */
final class InputCache {

    private Scenario scenario;
    private byte[] unique = new byte[0];
    private LinkInput current;

    /**
     * Makes {@code length} bytes of {@code scenario} from {@code offset} the current input; the
     * whole input repeats the scenario's first {@link Scenario#MAX_UNIQUE_BYTES} bytes when longer.
     *
     * @throws IllegalArgumentException for a slice from a non-zero offset that reaches past the unique bytes
     */
    void prepare(Scenario wanted, long offset, long length) {
        if (offset < 0 || length < 1 || offset > 0 && offset + length > Scenario.MAX_UNIQUE_BYTES) {
            throw new IllegalArgumentException("cannot prepare " + length + " bytes from " + offset + " of "
                    + wanted.name() + ": a slice from an offset must lie within the first "
                    + Scenario.MAX_UNIQUE_BYTES + " bytes");
        }
        int needed = (int) Math.min(Scenario.MAX_UNIQUE_BYTES, offset + length);
        if (!wanted.equals(scenario) || unique.length < needed) {
            unique = new byte[0]; // lets the old bytes go before the new ones are made
            current = null;
            unique = wanted.generate(needed);
            scenario = wanted;
        }
        current = offset == 0 ? new LinkInput(unique, length)
                : LinkInput.of(Arrays.copyOfRange(unique, (int) offset, (int) (offset + length)));
    }

    /**
     * The input prepared last.
     *
     * @throws IllegalStateException if none was
     */
    LinkInput input() {
        if (current == null) {
            throw new IllegalStateException("no input prepared: send prepare first");
        }
        return current;
    }
}
