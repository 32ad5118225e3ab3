package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.agent.Contender;

/**
 * Measures one cell: every contender's transfers interleaved ({@link InterleavedRuns}), each cut
 * off at a deadline set by the fastest transfer the cell has finished so far, short ones repeated
 * and the median kept. A contender cut off is slower than the deadline, a multiple of a time
 * another contender reached, so it cannot be the cell's best fixed choice; the cut saves the
 * minutes xz would take at 1 Gbit/s.
 */
final class CellRunner {

    /** One transfer with a deadline in seconds (0 for none). */
    @FunctionalInterface
    interface Transfer {
        Measurement.Run run(Contender contender, double deadline) throws IOException;
    }

    private final LinkConfig.Sizes sizes;
    private final PrintStream progress;

    CellRunner(LinkConfig.Sizes sizes, PrintStream progress) {
        this.sizes = sizes;
        this.progress = progress;
    }

    /** The median of each contender's runs in {@code cell}, in the contenders' order. */
    List<Measurement> measure(Measurement.Cell cell, List<Contender> contenders, long inputBytes, Transfer transfer)
            throws IOException {
        progress.printf(Locale.ROOT, "%s: %d contenders, %.1f MiB each%n", cell, contenders.size(),
                inputBytes / 1048576.0);
        double[] fastest = {Double.POSITIVE_INFINITY};
        Map<Contender, List<Measurement.Run>> runs = InterleavedRuns.run(contenders,
                first -> first.finished() ? sizes.runsAfter(first.seconds(), cell.rate()) : 1,
                c -> {
                    double deadline = Double.isInfinite(fastest[0]) ? 0 : sizes.deadlineAfter(fastest[0]);
                    Measurement.Run r = transfer.run(c, deadline);
                    if (r.finished()) {
                        fastest[0] = Math.min(fastest[0], r.seconds());
                    }
                    return r;
                });
        List<Measurement> measured = new ArrayList<>();
        for (Contender c : contenders) {
            Measurement m = median(cell, c, inputBytes, runs.get(c));
            print(m);
            measured.add(m);
        }
        return measured;
    }

    /**
     * The median run, failed and aborted runs ranking after finished ones; verified only if
     * every run that was not cut off was.
     */
    static Measurement median(Measurement.Cell cell, Contender c, long inputBytes, List<Measurement.Run> runs) {
        List<Measurement.Run> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(Measurement.Run::rank));
        Measurement.Run middle = sorted.get((sorted.size() - 1) / 2);
        boolean verified = runs.stream().allMatch(r -> r.verified() || r.aborted());
        return new Measurement(cell, c, inputBytes, verified ? middle : middle.unverified(), runs.size());
    }

    private void print(Measurement m) {
        Measurement.Run r = m.run();
        String time = r.aborted() ? String.format(Locale.ROOT, "> %.2f s (cut off)", r.seconds())
                : r.finished() ? String.format(Locale.ROOT, "%8.3f s  %8.1f MB/s", r.seconds(), m.megabytesPerSecond())
                : "FAILED";
        progress.printf(Locale.ROOT, "  %-44s %-16s %9.1f KiB  %s  wire %5.1f%%  (%d run%s)%n", m.cell(),
                m.contender().label(), m.inputBytes() / 1024.0, time, 100.0 * r.wireBytes() / m.inputBytes(), m.runs(),
                m.runs() == 1 ? "" : "s");
    }
}
