package org.adaptivecompress.control;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;

/**
 * What a controller that models the pipeline optimises when it picks a rung: the time a
 * transfer takes (the default), that time within a budget of CPU for compression, or money.
 * Immutable; made by the factories or {@link #parse}, the one spec string every integration
 * takes.
 *
 * <ul>
 *   <li>{@code time}: the rung forecast to deliver the most input bytes per second.
 *   <li>{@code cpu-budget:S}: the same, among the rungs whose compression is forecast to use at
 *       most {@code S} cores (0.3: 30 % of one core) at the rate they deliver; raw always fits.
 *       Compression that the link holds back uses only the CPU the link lets it, so the budget
 *       is met without slowing the writer.
 *   <li>{@code cost:egress=E,cpu=C[,decode=D][,floor=R]}: the rung whose bytes cost least, at
 *       {@code E} per gigabyte (10<sup>9</sup> bytes) sent, {@code C} per CPU-second of
 *       compression and, if given, {@code D} per CPU-second the receiver spends decoding
 *       (estimated from each codec's decoding speed on the reference machine, docs/LADDER.md),
 *       among the rungs forecast to deliver at least {@code R} input bytes per second
 *       ({@code R} as a link rate: {@code 100mbit}, {@code 20MB}, a plain number of bytes);
 *       without {@code floor}, among all; if none reaches the floor, the fastest. With
 *       {@code deadline=T} ({@code 30s}, {@code 5m}, {@code 500ms}) the floor also rises to
 *       what the transfer must still deliver to end within {@code T} of its start: the bytes
 *       left over the time left, which needs the transfer's length ({@link #forLength}); a
 *       transfer that reaches its deadline takes the fastest rung.
 * </ul>
 */
public final class Objective {

    /** Which quantity the controller optimises. */
    public enum Kind {
        /** Time: the most input bytes per second. */
        TIME,
        /** Time, within a share of a core for compression. */
        CPU_BUDGET,
        /** Money: egress and compression CPU. */
        COST
    }

    private static final Objective TIME = new Objective(Kind.TIME, Double.POSITIVE_INFINITY, 0, 0, 0, 0, 0, -1);

    private final Kind kind;
    private final double cores;
    private final double pricePerGigabyte;
    private final double pricePerCpuSecond;
    private final double pricePerDecodeCpuSecond;
    private final double floorBytesPerSecond;
    /** 0 for none. */
    private final long deadlineNanos;
    /** The transfer's length in bytes, for a deadline; -1 if not known. */
    private final long expectedBytes;

    private Objective(Kind kind, double cores, double pricePerGigabyte, double pricePerCpuSecond,
            double pricePerDecodeCpuSecond, double floorBytesPerSecond, long deadlineNanos, long expectedBytes) {
        this.deadlineNanos = deadlineNanos;
        this.expectedBytes = expectedBytes;
        this.kind = kind;
        this.cores = cores;
        this.pricePerGigabyte = pricePerGigabyte;
        this.pricePerCpuSecond = pricePerCpuSecond;
        this.pricePerDecodeCpuSecond = pricePerDecodeCpuSecond;
        this.floorBytesPerSecond = floorBytesPerSecond;
    }

    /** The default: the least time. */
    public static Objective time() {
        return TIME;
    }

    /**
     * The least time among rungs whose compression uses at most {@code cores} cores.
     *
     * @throws IllegalArgumentException unless {@code cores} is positive and finite
     */
    public static Objective cpuBudget(double cores) {
        if (!(cores > 0) || Double.isInfinite(cores)) {
            throw new IllegalArgumentException("cpu budget must be a positive number of cores, was " + cores);
        }
        return new Objective(Kind.CPU_BUDGET, cores, 0, 0, 0, 0, 0, -1);
    }

    /**
     * The least money: {@code pricePerGigabyte} per 10<sup>9</sup> bytes sent and
     * {@code pricePerCpuSecond} per second of compression CPU, among rungs delivering at least
     * {@code floorBytesPerSecond} (0 for no floor); the receiver's decoding is not priced.
     *
     * @throws IllegalArgumentException if a price or the floor is negative or not finite, or
     *     both prices are 0
     */
    public static Objective cost(double pricePerGigabyte, double pricePerCpuSecond, double floorBytesPerSecond) {
        return cost(pricePerGigabyte, pricePerCpuSecond, 0, floorBytesPerSecond);
    }

    /**
     * The least money as {@link #cost(double, double, double)}, also counting
     * {@code pricePerDecodeCpuSecond} per second of the receiver's CPU decoding.
     *
     * @throws IllegalArgumentException if a price or the floor is negative or not finite, or
     *     every price is 0
     */
    public static Objective cost(double pricePerGigabyte, double pricePerCpuSecond, double pricePerDecodeCpuSecond,
            double floorBytesPerSecond) {
        checkAmount("egress price", pricePerGigabyte);
        checkAmount("cpu price", pricePerCpuSecond);
        checkAmount("decode price", pricePerDecodeCpuSecond);
        checkAmount("floor", floorBytesPerSecond);
        if (pricePerGigabyte == 0 && pricePerCpuSecond == 0 && pricePerDecodeCpuSecond == 0) {
            throw new IllegalArgumentException("a cost objective needs a price: egress, cpu or decode above 0");
        }
        return new Objective(Kind.COST, Double.POSITIVE_INFINITY, pricePerGigabyte, pricePerCpuSecond,
                pricePerDecodeCpuSecond, floorBytesPerSecond, 0, -1);
    }

    /**
     * This cost objective with a deadline: the transfer should end within {@code deadline} of
     * its start, so the rate floor rises to what is left over the time left. It needs the
     * transfer's length ({@link #forLength}) before a controller takes it.
     *
     * @throws IllegalArgumentException unless this is a cost objective and {@code deadline} is positive
     */
    public Objective withDeadline(Duration deadline) {
        if (kind != Kind.COST) {
            throw new IllegalArgumentException("only a cost objective takes a deadline, not " + this);
        }
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive, was " + deadline);
        }
        return new Objective(kind, cores, pricePerGigabyte, pricePerCpuSecond, pricePerDecodeCpuSecond,
                floorBytesPerSecond, deadline.toNanos(), expectedBytes);
    }

    /**
     * This objective for a transfer of {@code bytes} bytes, which a deadline needs to know what
     * is left; the integrations that know their input's length (the CLI) bind it.
     */
    public Objective forLength(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("length must be 0 or more, was " + bytes);
        }
        return new Objective(kind, cores, pricePerGigabyte, pricePerCpuSecond, pricePerDecodeCpuSecond,
                floorBytesPerSecond, deadlineNanos, bytes);
    }

    /** Whether this objective has a deadline. */
    public boolean hasDeadline() {
        return deadlineNanos > 0;
    }

    /** The deadline, or {@link Duration#ZERO} for none. */
    public Duration deadline() {
        return Duration.ofNanos(deadlineNanos);
    }

    /** The transfer's length a deadline counts down, or -1 if not bound ({@link #forLength}). */
    public long expectedBytes() {
        return expectedBytes;
    }

    /**
     * The input bytes per second the transfer must deliver from now: the rate floor, or with a
     * deadline the bytes left over the time left if that is more; infinite once the deadline has
     * passed with bytes left.
     *
     * @param bytesSoFar input bytes compressed so far
     * @param elapsedNanos time since the transfer started
     */
    public double floorBytesPerSecond(long bytesSoFar, long elapsedNanos) {
        if (deadlineNanos == 0 || expectedBytes < 0) {
            return floorBytesPerSecond;
        }
        long left = expectedBytes - bytesSoFar;
        if (left <= 0) {
            return floorBytesPerSecond;
        }
        long timeLeft = deadlineNanos - elapsedNanos;
        return timeLeft <= 0 ? Double.POSITIVE_INFINITY : Math.max(floorBytesPerSecond, left * 1e9 / timeLeft);
    }

    private static void checkAmount(String what, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be 0 or a positive number, was " + v);
        }
    }

    /**
     * The objective of a spec string: {@code time}, {@code cpu-budget:0.3} or
     * {@code cost:egress=0.05,cpu=0.00004[,floor=100mbit]}.
     *
     * @throws IllegalArgumentException naming what is wrong, for any other string
     */
    public static Objective parse(String spec) {
        Objects.requireNonNull(spec, "objective is null");
        String s = spec.trim();
        String lower = s.toLowerCase(Locale.ROOT);
        try {
            if (lower.equals("time")) {
                return TIME;
            }
            if (lower.startsWith("cpu-budget:")) {
                return cpuBudget(Double.parseDouble(s.substring("cpu-budget:".length())));
            }
            if (lower.startsWith("cost:")) {
                double egress = 0;
                double cpu = 0;
                double decode = 0;
                double floor = 0;
                Duration deadline = null;
                for (String part : s.substring("cost:".length()).split(",")) {
                    String[] kv = part.split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("'" + part + "' is not key=value");
                    }
                    switch (kv[0].trim().toLowerCase(Locale.ROOT)) {
                        case "egress":
                            egress = Double.parseDouble(kv[1].trim());
                            break;
                        case "cpu":
                            cpu = Double.parseDouble(kv[1].trim());
                            break;
                        case "decode":
                            decode = Double.parseDouble(kv[1].trim());
                            break;
                        case "floor":
                            floor = RateLimitedOutputStream.parseRate(kv[1].trim());
                            break;
                        case "deadline":
                            deadline = parseDuration(kv[1].trim());
                            break;
                        default:
                            throw new IllegalArgumentException("unknown key '" + kv[0].trim()
                                    + "' (egress, cpu, decode, floor and deadline are known)");
                    }
                }
                Objective cost = cost(egress, cpu, decode, floor);
                return deadline == null ? cost : cost.withDeadline(deadline);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("objective '" + spec + "': " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("objective '" + spec
                + "' is not one of time, cpu-budget:CORES, cost:egress=PRICE_PER_GB,cpu=PRICE_PER_CPU_SECOND[,decode=PRICE_PER_CPU_SECOND][,floor=RATE][,deadline=TIME]");
    }

    /** {@code 30s}, {@code 5m}, {@code 1h}, {@code 500ms}, or a plain number of seconds. */
    private static Duration parseDuration(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        double scale = 1;
        if (t.endsWith("ms")) {
            scale = 1e-3;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            scale = 60;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("h")) {
            scale = 3600;
            t = t.substring(0, t.length() - 1);
        }
        double seconds;
        try {
            seconds = Double.parseDouble(t.trim()) * scale;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("deadline '" + text + "' is not a time such as 30s, 5m or 500ms", e);
        }
        if (!(seconds > 0) || seconds > 1e9) {
            throw new IllegalArgumentException("deadline '" + text + "' must be positive");
        }
        return Duration.ofNanos((long) (seconds * 1e9));
    }

    /** Which quantity is optimised. */
    public Kind kind() {
        return kind;
    }

    /** The cores compression may use; infinite unless {@link Kind#CPU_BUDGET}. */
    public double cores() {
        return cores;
    }

    /** Price per 10<sup>9</sup> bytes sent; 0 unless {@link Kind#COST}. */
    public double pricePerGigabyte() {
        return pricePerGigabyte;
    }

    /** Price per second of compression CPU; 0 unless {@link Kind#COST}. */
    public double pricePerCpuSecond() {
        return pricePerCpuSecond;
    }

    /** Price per second of the receiver's CPU decoding; 0 unless {@link Kind#COST} and given. */
    public double pricePerDecodeCpuSecond() {
        return pricePerDecodeCpuSecond;
    }

    /** Input bytes per second a rung must deliver to be chosen for cost; 0 for no floor. */
    public double floorBytesPerSecond() {
        return floorBytesPerSecond;
    }

    /**
     * The money one input byte costs at a rung that shrinks it {@code ratio} times, compresses
     * {@code bytesPerCpuSecond} per second of CPU and decodes {@code decodedBytesPerCpuSecond}:
     * egress for its share of the wire plus the CPU it takes on both ends.
     */
    public double costPerInputByte(double ratio, double bytesPerCpuSecond, double decodedBytesPerCpuSecond) {
        return pricePerGigabyte / 1e9 / ratio + pricePerCpuSecond / bytesPerCpuSecond
                + pricePerDecodeCpuSecond / decodedBytesPerCpuSecond;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Objective)) {
            return false;
        }
        Objective x = (Objective) o;
        return kind == x.kind && Double.compare(cores, x.cores) == 0
                && Double.compare(pricePerGigabyte, x.pricePerGigabyte) == 0
                && Double.compare(pricePerCpuSecond, x.pricePerCpuSecond) == 0
                && Double.compare(pricePerDecodeCpuSecond, x.pricePerDecodeCpuSecond) == 0
                && Double.compare(floorBytesPerSecond, x.floorBytesPerSecond) == 0
                && deadlineNanos == x.deadlineNanos && expectedBytes == x.expectedBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, cores, pricePerGigabyte, pricePerCpuSecond, pricePerDecodeCpuSecond,
                floorBytesPerSecond, deadlineNanos, expectedBytes);
    }

    /** The spec string {@link #parse} reads back; a length bound with {@link #forLength} is not part of it. */
    @Override
    public String toString() {
        switch (kind) {
            case CPU_BUDGET:
                return "cpu-budget:" + cores;
            case COST:
                return "cost:egress=" + pricePerGigabyte + ",cpu=" + pricePerCpuSecond
                        + (pricePerDecodeCpuSecond > 0 ? ",decode=" + pricePerDecodeCpuSecond : "")
                        + (floorBytesPerSecond > 0 ? ",floor=" + (long) floorBytesPerSecond + "B" : "")
                        + (deadlineNanos > 0 ? ",deadline=" + deadlineNanos / 1e9 + "s" : "");
            default:
                return "time";
        }
    }
}
