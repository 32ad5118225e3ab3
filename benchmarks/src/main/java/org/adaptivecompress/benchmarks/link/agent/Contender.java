package org.adaptivecompress.benchmarks.link.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;

/**
 * One way of getting a cell's bytes across the link, named by an id that the driver and both
 * agents share: {@code plain} (a socket copy, no framing), {@code fixed:N} (our stream pinned to
 * rung N of the default ladder), {@code default}, {@code history} (the default controller with
 * histories: zstd and xz blocks that match across blocks), {@code adoc}, {@code parallel} (the
 * default controller with a worker per core), {@code controller:NAME} (any controller
 * {@link LevelControllers#byName} knows), the default controller under another
 * {@link Objective}: {@code cpu-budget:S} (at most S cores) and {@code cost:E} (egress at E per
 * GB, CPU at {@link #CORE_SECOND_PRICE}), the default controller with blocks never longer than
 * SIZE bytes ({@code blocks:SIZE}, a suffix k or m allowed: {@code blocks:128k} keeps every
 * block at the default block size, as before blocks followed the link), and the native
 * command-line codecs {@code zstd-3},
 * {@code zstd-9}, {@code zstd-adapt} and {@code lz4}.
 *
 * @param id the id on the command line and in the agents' protocol, without spaces
 * @param label the name in the tables, e.g. {@code fixed:3 zstd:3} or {@code zstd --adapt}
 * @param kind how it sends
 */
public record Contender(String id, String label, Kind kind) {

    /** How a contender sends. */
    public enum Kind {
        /** Bytes as they are, straight into the socket. */
        PLAIN,
        /** Our stream pinned to one rung: the candidates for the best fixed choice. */
        FIXED,
        /** Our stream with a controller choosing rungs. */
        ADAPTIVE,
        /** A command-line codec in a child process of the sender. */
        NATIVE
    }

    /** The id of the default controller's contender, the one the targets are about. */
    public static final String DEFAULT = "default";
    /** The id of the default controller with histories on. */
    public static final String HISTORY = "history";
    /** The id of native {@code zstd --adapt}, the adaptive reference outside this project. */
    public static final String ZSTD_ADAPT = "zstd-adapt";
    /** The id of the plain socket copy. */
    public static final String PLAIN = "plain";

    private static final String CONTROLLER = "controller:";
    private static final String CPU_BUDGET = "cpu-budget:";
    private static final String COST = "cost:";
    private static final String BLOCKS = "blocks:";
    /** The price of a second of one core that cost contenders weigh: a cloud core at about 0.04 per hour. */
    public static final double CORE_SECOND_PRICE = 0.04 / 3600;

    /**
     * Every contender a full run measures, in the order a cell runs them: the usually fast ones
     * first, so the deadline that cuts off hopeless ones is set early (plain, default, raw, lz4,
     * zstd:1, ...), xz last.
     */
    public static List<Contender> defaults() {
        List<String> ids = List.of(PLAIN, DEFAULT, HISTORY, "fixed:0", "fixed:1", "lz4", "fixed:2", "parallel", "adoc",
                "zstd-3", "fixed:3", ZSTD_ADAPT, "zstd-9", "fixed:4", "fixed:5", "fixed:6");
        return ids.stream().map(Contender::parse).toList();
    }

    /**
     * The contenders named in {@code spec}, comma-separated; {@code all} stands for
     * {@link #defaults()}.
     */
    public static List<Contender> parseList(String spec) {
        List<Contender> list = new ArrayList<>();
        for (String id : spec.split(",")) {
            for (Contender c : id.trim().equals("all") ? defaults() : List.of(parse(id.trim()))) {
                if (!list.contains(c)) {
                    list.add(c);
                }
            }
        }
        return List.copyOf(list);
    }

    /**
     * The contender with this id.
     *
     * @throws IllegalArgumentException naming the id and the ones known
     */
    public static Contender parse(String id) {
        String n = id.trim().toLowerCase(Locale.ROOT);
        Ladder ladder = Ladder.defaultLadder();
        switch (n) {
            case PLAIN:
                return new Contender(n, "plain", Kind.PLAIN);
            case DEFAULT:
            case HISTORY:
            case "adoc":
            case "parallel":
                return new Contender(n, n, Kind.ADAPTIVE);
            case "zstd-3":
                return new Contender(n, "zstd -3", Kind.NATIVE);
            case "zstd-9":
                return new Contender(n, "zstd -9", Kind.NATIVE);
            case ZSTD_ADAPT:
                return new Contender(n, "zstd --adapt", Kind.NATIVE);
            case "lz4":
                return new Contender(n, "lz4", Kind.NATIVE);
            default:
                break;
        }
        if (n.startsWith("fixed:")) {
            int rung = rung(n, ladder);
            return new Contender(n, n + " " + ladder.rung(rung), Kind.FIXED);
        }
        if (n.startsWith(CPU_BUDGET) || n.startsWith(COST)) {
            new Contender(n, n, Kind.ADAPTIVE).objective(); // refuses a bad figure now
            return new Contender(n, n, Kind.ADAPTIVE);
        }
        if (n.startsWith(BLOCKS)) {
            new Contender(n, n, Kind.ADAPTIVE).maxBlockSize(); // refuses a bad size now
            return new Contender(n, n, Kind.ADAPTIVE);
        }
        if (n.startsWith(CONTROLLER) && n.length() > CONTROLLER.length()) {
            LevelControllers.byName(n.substring(CONTROLLER.length())); // refuses an unknown name now
            return new Contender(n, n, Kind.ADAPTIVE);
        }
        throw new IllegalArgumentException("unknown contender '" + id + "'; expected all, plain, default, history, adoc,"
                + " parallel, fixed:0-" + ladder.top() + ", controller:NAME, cpu-budget:S, cost:E, blocks:SIZE, zstd-3, zstd-9,"
                + " zstd-adapt or lz4");
    }

    /** For {@code controller:NAME}, the controller's name; the default for an objective's contender. */
    String controllerName() {
        if (id.startsWith(CPU_BUDGET) || id.startsWith(COST) || id.startsWith(BLOCKS)) {
            return LevelControllers.DEFAULT_NAME;
        }
        return id.startsWith(CONTROLLER) ? id.substring(CONTROLLER.length()) : id;
    }

    /**
     * For {@code blocks:SIZE}, SIZE in bytes; -1 for any other contender.
     *
     * @throws IllegalArgumentException if SIZE is not a size from 256 bytes to 64 MiB
     */
    public int maxBlockSize() {
        if (!id.startsWith(BLOCKS)) {
            return -1;
        }
        String size = id.substring(BLOCKS.length());
        int shift = size.endsWith("k") ? 10 : size.endsWith("m") ? 20 : 0;
        try {
            long bytes = Long.parseLong(shift == 0 ? size : size.substring(0, size.length() - 1)) << shift;
            if (bytes >= AdaptiveCompressionOptions.MIN_BLOCK_SIZE && bytes <= 64 << 20) {
                return (int) bytes;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("contender '" + id + "': blocks:SIZE takes a size from 256 to 64m, e.g."
                + " blocks:128k");
    }

    /** What the contender's controller optimises: time unless it is {@code cpu-budget:S} or {@code cost:E}. */
    public Objective objective() {
        if (id.startsWith(CPU_BUDGET)) {
            return Objective.cpuBudget(Double.parseDouble(id.substring(CPU_BUDGET.length())));
        }
        if (id.startsWith(COST)) {
            return Objective.cost(Double.parseDouble(id.substring(COST.length())), CORE_SECOND_PRICE, 0);
        }
        return Objective.time();
    }

    /** The command line of a native contender. */
    List<String> command() {
        return switch (id) {
            case "zstd-3" -> List.of("zstd", "-3", "-q", "-c");
            case "zstd-9" -> List.of("zstd", "-9", "-q", "-c");
            case ZSTD_ADAPT -> List.of("zstd", "--adapt", "-q", "-c");
            case "lz4" -> List.of("lz4", "-q", "-c");
            default -> throw new IllegalStateException(id + " is not a native contender");
        };
    }

    /** For a native contender, the binary it runs. */
    public String binary() {
        return command().get(0);
    }

    /** Whether this is one of our streams, adaptive or fixed: it reports rungs and blocks. */
    public boolean framed() {
        return kind == Kind.FIXED || kind == Kind.ADAPTIVE;
    }

    private static int rung(String id, Ladder ladder) {
        try {
            int rung = Integer.parseInt(id.substring("fixed:".length()));
            if (rung >= 0 && rung < ladder.size()) {
                return rung;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("contender '" + id + "': the default ladder's rungs are fixed:0 to fixed:"
                + ladder.top());
    }
}
