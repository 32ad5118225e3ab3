package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.agent.Contender;

/**
 * Runs the transfers of one cell's contenders in rounds: each contender once, then again for
 * each contender that wants more runs, and so on. A shared machine has slow stretches lasting
 * seconds; run back to back, a contender's transfers could all fall into one, and the cell's
 * best fixed choice be whichever contender ran in a quiet stretch. Interleaved, every
 * contender's runs spread over the same stretch of time.
 */
final class InterleavedRuns {

    /** One transfer by one contender. */
    @FunctionalInterface
    interface Transfer {
        Measurement.Run run(Contender contender) throws IOException;
    }

    /** How many runs a contender gets in all, decided from its first. */
    @FunctionalInterface
    interface RunsWanted {
        int after(Measurement.Run first);
    }

    private InterleavedRuns() {}

    /**
     * Every contender's runs, in the contenders' order, each list in the order run: a first round
     * of every contender, then rounds of those that {@code wanted} more runs of after their
     * first.
     */
    static Map<Contender, List<Measurement.Run>> run(List<Contender> contenders, RunsWanted wanted, Transfer transfer)
            throws IOException {
        Map<Contender, List<Measurement.Run>> runs = new LinkedHashMap<>();
        Map<Contender, Integer> wants = new LinkedHashMap<>();
        int rounds = 0;
        for (Contender c : contenders) {
            Measurement.Run first = transfer.run(c);
            runs.put(c, new ArrayList<>(List.of(first)));
            int w = wanted.after(first);
            wants.put(c, w);
            rounds = Math.max(rounds, w);
        }
        for (int round = 1; round < rounds; round++) {
            for (Contender c : contenders) {
                if (wants.get(c) > round) {
                    runs.get(c).add(transfer.run(c));
                }
            }
        }
        return runs;
    }
}
