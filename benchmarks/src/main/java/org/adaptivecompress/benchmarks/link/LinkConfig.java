package org.adaptivecompress.benchmarks.link;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Links;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.adaptivecompress.benchmarks.scenario.Family;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.adaptivecompress.benchmarks.scenario.ScenarioSet;

/**
 * What the link benchmark runs, parsed from the command line; {@code --quick} shrinks everything
 * for a smoke run (tiny inputs, two rates, a scenario per family, six contenders).
 *
 * @param set the scenario set, held-out by default
 * @param scenarios the scenarios of the rate cells
 * @param rates link rates in bytes per second ({@link Rates#UNLIMITED} for none)
 * @param contenders in the order a cell runs them
 * @param cells which kinds of cell to run
 * @param link which link to use
 * @param sizes input lengths, deadlines and repeats
 * @param out directory for the CSV, the markdown report and the charts
 * @param trace directory the sender writes every decision of our streams' transfers into, as CSV
 *     (through the streams' decision listener); {@code null} for none
 */
public record LinkConfig(ScenarioSet set, List<Scenario> scenarios, List<Long> rates, List<Contender> contenders,
        Set<Measurement.Kind> cells, Links.Choice link, Sizes sizes, Path out, Path trace) {

    /** Every rate of a full run, 1 Mbit/s (a slow WAN) to 10 Gbit/s (the LAN the project is for) and none. */
    public static final String FULL_RATES = "1mbit,10mbit,50mbit,100mbit,300mbit,1gbit,2.5gbit,10gbit,unlimited";

    private static final String USAGE = "usage: link [--quick] [--set held-out|tuning] [--rates 1mbit,...,unlimited]"
            + " [--contenders all|plain,default,fixed:3,controller:NAME,zstd-adapt,...] [--scenarios mixed:7001,...]"
            + " [--cells rate,step,busy] [--link auto|kernel|relay] [--repeats N] [--max-input 64m] [--no-cutoff]"
            + " [--out DIR] [--trace DIR]";

    /**
     * Input lengths, deadlines and repeats.
     *
     * @param secondsAtRaw a rate cell's input is what the plain copy sends in this long...
     * @param minLength ...but at least this many bytes...
     * @param maxLength ...and at most this many; the unthrottled cells send this much
     * @param stepLength the rate-step cell's input
     * @param warmupLength what each contender sends once, unrecorded, before any cell
     * @param deadlineFactor a transfer is cut off at this multiple of its cell's fastest transfer so far...
     * @param deadlineFloorSeconds ...but never sooner than this
     * @param repeatBelowSeconds transfers faster than this are repeated...
     * @param repeats ...this many times in all, the median kept...
     * @param unthrottledRepeats ...or this many at no rate, where only the machine's noise paces them
     */
    public record Sizes(double secondsAtRaw, long minLength, long maxLength, long stepLength, long warmupLength,
            double deadlineFactor, double deadlineFloorSeconds, double repeatBelowSeconds, int repeats,
            int unthrottledRepeats) {

        /** The input length of a rate cell at {@code bytesPerSecond}. */
        public long lengthFor(long bytesPerSecond) {
            double wanted = bytesPerSecond == Rates.UNLIMITED ? maxLength : bytesPerSecond * secondsAtRaw;
            return (long) Math.max(minLength, Math.min(maxLength, wanted));
        }

        /** How many runs a transfer at {@code bytesPerSecond} gets after a first that took {@code seconds}. */
        public int runsAfter(double seconds, long bytesPerSecond) {
            if (seconds >= repeatBelowSeconds) {
                return 1;
            }
            return bytesPerSecond == Rates.UNLIMITED ? unthrottledRepeats : repeats;
        }

        /** The deadline for a transfer in a cell whose fastest finished transfer took {@code fastest} seconds. */
        public double deadlineAfter(double fastest) {
            return Math.max(deadlineFloorSeconds, deadlineFactor * fastest);
        }
    }

    /**
     * A full run's sizes: two seconds of raw per rate cell, so start-up is not the transfer; at
     * least 1 MiB, eight blocks of 128 KiB even at 1 Mbit/s; at most 1 GiB, a second of the plain
     * copy at 10 Gbit/s; a deadline of 2.5x the fastest, which no best fixed choice comes near,
     * but never under 3 s, above the start-up noise of a JIT-warm JVM; three runs of transfers
     * under 1.5 s (five unthrottled), where a scheduling hiccup is a large part of the time.
     */
    static final Sizes FULL = new Sizes(2.0, 1 << 20, 1L << 30, 32 << 20, 8 << 20, 2.5, 3.0, 1.5, 3, 5);
    /** The deadline factor and floor of {@code --no-cutoff}: an hour, which no transfer here approaches. */
    static final double NO_CUTOFF = 3600;
    /** A smoke run's sizes: every transfer a fraction of a second, run once. */
    static final Sizes QUICK = new Sizes(0.25, 256 << 10, 4 << 20, 2 << 20, 1 << 20, 2.5, 1.0, 0, 1, 1);

    /** Parses the command line after the {@code link} word. */
    public static LinkConfig parse(String... args) {
        boolean quick = Arrays.asList(args).contains("--quick");
        ScenarioSet set = ScenarioSet.HELD_OUT;
        List<Scenario> scenarios = null;
        List<Long> rates = rates(quick ? "10mbit,unlimited" : FULL_RATES);
        List<Contender> contenders = quick
                ? Contender.parseList("plain,default,fixed:0,fixed:1,fixed:3," + Contender.ZSTD_ADAPT)
                : Contender.defaults();
        Set<Measurement.Kind> cells = EnumSet.allOf(Measurement.Kind.class);
        Links.Choice link = Links.Choice.AUTO;
        Sizes sizes = quick ? QUICK : FULL;
        Path out = Paths.get("benchmarks", "target", "link-results");
        Path trace = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { }
                case "--set" -> set = ScenarioSet.byLabel(value(args, ++i));
                case "--scenarios" -> scenarios = Arrays.stream(value(args, ++i).split(",")).map(Scenario::parse).toList();
                case "--rates" -> rates = rates(value(args, ++i));
                case "--contenders" -> contenders = Contender.parseList(value(args, ++i));
                case "--cells" -> cells = cells(value(args, ++i));
                case "--link" -> link = Links.Choice.parse(value(args, ++i));
                case "--repeats" -> {
                    int n = positive("--repeats", value(args, ++i));
                    sizes = new Sizes(sizes.secondsAtRaw(), sizes.minLength(), sizes.maxLength(), sizes.stepLength(),
                            sizes.warmupLength(), sizes.deadlineFactor(), sizes.deadlineFloorSeconds(),
                            sizes.repeatBelowSeconds(), n, n);
                }
                // Cost compares the slowest rungs too: smaller inputs, and none cut off.
                case "--max-input" -> {
                    long max = megabytes("--max-input", value(args, ++i));
                    sizes = new Sizes(sizes.secondsAtRaw(), Math.min(sizes.minLength(), max), max, sizes.stepLength(),
                            sizes.warmupLength(), sizes.deadlineFactor(), sizes.deadlineFloorSeconds(),
                            sizes.repeatBelowSeconds(), sizes.repeats(), sizes.unthrottledRepeats());
                }
                case "--no-cutoff" -> sizes = new Sizes(sizes.secondsAtRaw(), sizes.minLength(), sizes.maxLength(),
                        sizes.stepLength(), sizes.warmupLength(), NO_CUTOFF, NO_CUTOFF, sizes.repeatBelowSeconds(),
                        sizes.repeats(), sizes.unthrottledRepeats());
                case "--out" -> out = Paths.get(value(args, ++i));
                case "--trace" -> trace = Paths.get(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; " + USAGE);
            }
        }
        if (scenarios == null) {
            scenarios = quick ? firstOfEachFamily(set) : set.scenarios();
        }
        return new LinkConfig(set, scenarios, rates, contenders, cells, link, sizes, out, trace);
    }

    private static List<Scenario> firstOfEachFamily(ScenarioSet set) {
        return Arrays.stream(Family.values()).map(f -> new Scenario(f, set.seeds()[0])).toList();
    }

    /** {@code 64m} or {@code 1g} (binary units) in bytes. */
    private static long megabytes(String option, String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = t.endsWith("g") ? 1L << 30 : t.endsWith("m") ? 1L << 20 : t.endsWith("k") ? 1L << 10 : 1;
        try {
            long n = Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
            if (n < 1 << 20) {
                throw new IllegalArgumentException(option + " must be at least 1m, was " + text);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a size such as 64m, not '" + text + "'", e);
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value; " + USAGE);
        }
        return args[i];
    }

    private static List<Long> rates(String spec) {
        List<Long> list = new ArrayList<>();
        for (String r : spec.split(",")) {
            list.add(Rates.parse(r));
        }
        return List.copyOf(list);
    }

    private static Set<Measurement.Kind> cells(String spec) {
        Set<Measurement.Kind> set = EnumSet.noneOf(Measurement.Kind.class);
        for (String c : spec.split(",")) {
            set.add(Measurement.Kind.parse(c));
        }
        return set;
    }

    private static int positive(String option, String text) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(option + " needs a positive whole number, not '" + text + "'; " + USAGE);
    }
}
