package org.adaptivecompress.benchmarks.link;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Locale;
import java.util.List;
import org.adaptivecompress.stream.RateLimitedOutputStream;

/**
 * What one link benchmark run measures: rates, data kinds, contenders, input sizes and where the
 * results go. Parsed from the command line; {@code --quick} shrinks everything for CI smoke runs.
 *
 * @param rates link rates in bytes per second ({@link RateLimitedOutputStream#UNLIMITED} for none)
 * @param kinds data kinds of the fixed-rate matrix
 * @param contenders contender names to run, or empty for all but the optional ones with zstd
 *     histories, which run only when named
 * @param secondsAtRaw input size at each rate is what raw would send in this many seconds...
 * @param minSize ...but at least this many bytes (so a controller sees enough blocks)...
 * @param maxLength ...and at most this many; the unthrottled cells send this much
 * @param maxBlock the most bytes generated for one cell; longer inputs repeat them (see {@link LinkInput})
 * @param scenarios whether to run the step-rate and CPU-contended scenarios
 * @param warmup whether to run each contender once, unrecorded, before measuring
 * @param repeats runs per short transfer, of which the median is kept
 * @param out directory for the CSV, the markdown table and the charts
 */
public record LinkConfig(List<Long> rates, List<LinkData> kinds, List<String> contenders, double secondsAtRaw,
        int minSize, long maxLength, int maxBlock, boolean scenarios, boolean warmup, int repeats, Path out) {

    private static final String USAGE = "usage: link [--quick] [--rates 1mbit,10mbit,...,unlimited]"
            + " [--kinds json,text,binary,random,changing] [--contenders raw,adoc,...] [--max-size 64m]"
            + " [--repeats N] [--no-scenarios] [--out DIR]";

    /** Parses the command line after the {@code link} word. */
    public static LinkConfig parse(String... args) {
        boolean quick = Arrays.asList(args).contains("--quick");
        // 10 Gbit/s is the LAN the project is for: a link faster than every codec, where the stream
        // must cost next to nothing over raw bytes; unthrottled loopback is faster still.
        List<Long> rates = rates(quick ? "10mbit,unlimited" : "1mbit,10mbit,100mbit,1000mbit,10gbit,unlimited");
        List<LinkData> kinds = quick ? List.of(LinkData.JSON, LinkData.CHANGING) : List.of(LinkData.values());
        List<String> contenders = List.of();
        // At least 16 blocks of 128 KiB, so any feedback loop has something to act on; two
        // seconds of raw, so start-up is not the whole transfer; 1 GiB unthrottled, about a
        // second of raw over loopback, where 16 MiB took milliseconds and measured start-up.
        double seconds = quick ? 0.1 : 2.0;
        int minSize = quick ? 64 << 10 : 2 << 20;
        long maxLength = quick ? 1 << 20 : 1L << 30;
        int maxBlock = quick ? 1 << 20 : 16 << 20;
        boolean scenarios = true;
        int repeats = quick ? 1 : 5;
        Path out = Paths.get("benchmarks", "target", "link-results");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { }
                case "--rates" -> rates = rates(value(args, ++i));
                case "--kinds" -> kinds = kinds(value(args, ++i));
                case "--contenders" -> contenders = List.of(value(args, ++i).split(","));
                case "--max-size" -> {
                    int max = size(value(args, ++i));
                    maxLength = Math.min(maxLength, max);
                    maxBlock = Math.min(maxBlock, max);
                    minSize = Math.min(minSize, max);
                }
                case "--repeats" -> repeats = positive("--repeats", value(args, ++i));
                case "--no-scenarios" -> scenarios = false;
                case "--out" -> out = Paths.get(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; " + USAGE);
            }
        }
        return new LinkConfig(rates, kinds, contenders, seconds, minSize, maxLength, maxBlock, scenarios, !quick,
                repeats, out);
    }

    /** The input length for a cell at this rate. */
    public long sizeFor(long bytesPerSecond) {
        double wanted = bytesPerSecond == RateLimitedOutputStream.UNLIMITED ? maxLength : bytesPerSecond * secondsAtRaw;
        return (long) Math.max(minSize, Math.min(maxLength, wanted));
    }

    /** The input of a cell at this rate: {@code data}'s first bytes, repeated if the cell is longer than a block. */
    public LinkInput inputFor(LinkData data, long bytesPerSecond) {
        long length = sizeFor(bytesPerSecond);
        return new LinkInput(data.generate((int) Math.min(length, maxBlock)), length);
    }

    /** Whether the contender with this name is to run. */
    public boolean runs(String contender) {
        return contenders.isEmpty() || names(contender);
    }

    /** Whether {@code --contenders} names this contender: the only way to run an optional one. */
    public boolean names(String contender) {
        return contenders.contains(contender);
    }

    /** A rate as the tables show it: {@code 10 Mbit/s} or {@code unthrottled}. */
    public static String rateLabel(long bytesPerSecond) {
        if (bytesPerSecond == RateLimitedOutputStream.UNLIMITED) {
            return "unthrottled";
        }
        return (bytesPerSecond * 8 / 1_000_000) + " Mbit/s";
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
            list.add(RateLimitedOutputStream.parseRate(r));
        }
        return List.copyOf(list);
    }

    private static List<LinkData> kinds(String spec) {
        List<LinkData> list = new ArrayList<>();
        for (String k : spec.split(",")) {
            list.add(LinkData.byName(k));
        }
        return List.copyOf(list);
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

    private static int size(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int shift = t.endsWith("k") ? 10 : t.endsWith("m") ? 20 : 0;
        String digits = shift == 0 ? t : t.substring(0, t.length() - 1);
        return Integer.parseInt(digits) << shift;
    }
}
