package org.adaptivecompress.benchmarks.link;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.QdiscCounters;
import org.adaptivecompress.benchmarks.link.net.Rates;

/**
 * How well the link keeps its rates, from the plain copy's transfers in the rate cells: the
 * goodput it reached against the rate set, the most bytes it had written and the receiver not yet
 * verified (what the kernel swallows at once: the send buffer, the qdisc's queue and the receive
 * buffer), and, on the kernel's
 * link, the qdisc's mean packet, data and ACKs (far under the 64 KiB of TCP's segments if tbf cut
 * them into frames of at most 1514 bytes) and its drops.
 */
final class Calibration {

    private Calibration() {}

    /** The calibration table. */
    static String markdown(List<Measurement> measurements, Map<Long, QdiscCounters> counters) {
        Map<Long, List<Measurement>> byRate = new TreeMap<>();
        for (Measurement m : measurements) {
            if (m.cell().kind() == Measurement.Kind.RATE && m.contender().id().equals(Contender.PLAIN)
                    && m.run().finished()) {
                byRate.computeIfAbsent(m.cell().rate(), r -> new ArrayList<>()).add(m);
            }
        }
        if (byRate.isEmpty()) {
            return "No plain copy was measured.\n";
        }
        StringBuilder md = new StringBuilder("| rate | plain copy (median) | of the rate | range | most bytes in"
                + " flight (median) | transfers | qdisc mean packet | qdisc drops |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<Long, List<Measurement>> e : byRate.entrySet()) {
            long rate = e.getKey();
            double[] achieved = e.getValue().stream().mapToDouble(m -> m.inputBytes() / m.run().seconds()).sorted()
                    .toArray();
            long[] inFlight = e.getValue().stream().mapToLong(m -> m.run().inFlightBytes()).filter(a -> a >= 0)
                    .sorted().toArray();
            boolean shaped = rate != Rates.UNLIMITED;
            QdiscCounters q = counters.get(rate);
            md.append(String.format(Locale.ROOT, "| %s | %.1f Mbit/s | %s | %s | %s | %d | %s | %s |%n",
                    Rates.label(rate), Rates.megabits(median(achieved)),
                    shaped ? percent(median(achieved) / rate) : "-",
                    shaped ? percent(achieved[0] / rate) + "-" + percent(achieved[achieved.length - 1] / rate) : "-",
                    inFlight.length == 0 ? "-" : bytes(inFlight[(inFlight.length - 1) / 2]), achieved.length,
                    q == null ? "-" : q.meanPacket() + " B", q == null ? "-" : Long.toString(q.drops())));
        }
        return md.toString();
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }

    private static String bytes(long n) {
        return n >= 1 << 20 ? String.format(Locale.ROOT, "%.2f MiB", n / 1048576.0)
                : String.format(Locale.ROOT, "%d KiB", n >> 10);
    }
}
