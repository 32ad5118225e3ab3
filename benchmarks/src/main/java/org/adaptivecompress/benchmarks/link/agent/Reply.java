package org.adaptivecompress.benchmarks.link.agent;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** A line from an agent to the driver (see the package documentation for the protocol). */
public sealed interface Reply {

    /** The line, without its newline. */
    String line();

    /** The agent is up. */
    record Hello(String role) implements Reply {
        @Override
        public String line() {
            return "hello " + role;
        }
    }

    /** The prepared bytes are in memory; making them took {@code millis}. */
    record Ready(long millis) implements Reply {
        @Override
        public String line() {
            return "ready " + millis;
        }
    }

    /** The receiver accepts one connection on {@code port}. */
    record Listening(int port) implements Reply {
        @Override
        public String line() {
            return "listening " + port;
        }
    }

    /** The receiver verified the {@code index}-th mark's bytes at {@code nanos}. */
    record Mark(int index, long nanos) implements Reply {
        @Override
        public String line() {
            return "mark " + index + " " + nanos;
        }
    }

    /**
     * The receiver decoded and checked {@code bytes} bytes, the last at {@code endNanos}.
     * {@link System#nanoTime()} reads CLOCK_MONOTONIC on Linux, one clock for every process on
     * the machine (network namespaces do not change it; only a time namespace would, and the
     * benchmark makes none), so the sender's start and this end, from two JVMs, subtract.
     *
     * @param verdict {@code ok}, {@code short} (fewer bytes than sent) or {@code mismatch@POSITION}
     * @param samples the time at each multiple of the requested sample size, empty if none asked
     */
    record Received(long endNanos, long bytes, String verdict, long[] samples) implements Reply {
        /** Whether every byte arrived and matched. */
        public boolean verified() {
            return verdict.equals("ok");
        }

        @Override
        public String line() {
            return "received " + endNanos + " " + bytes + " " + verdict + " " + join(samples);
        }
    }

    /**
     * The sender sent everything, starting at {@code startNanos}.
     *
     * @param wireBytes bytes written into the socket
     * @param writes the time at each multiple of 128 KiB written, the plain copy's; empty for others
     * @param rungs rung changes of our streams, empty for others
     * @param blocks blocks stored at each rung of our streams, empty for others
     * @param cpuNanos CPU time our streams spent compressing, 0 for the plain copy, -1 if unknown
     */
    record Sent(long startNanos, long wireBytes, long[] writes, List<RungTimeline.Point> rungs, long[] blocks,
            long cpuNanos) implements Reply {
        @Override
        public String line() {
            return "sent " + startNanos + " " + wireBytes + " " + join(writes) + " " + RungTimeline.encode(rungs) + " "
                    + join(blocks) + " " + cpuNanos;
        }
    }

    /** The sender passed its deadline and closed the connection after {@code wireBytes} bytes. */
    record Aborted(long startNanos, long wireBytes) implements Reply {
        @Override
        public String line() {
            return "aborted " + startNanos + " " + wireBytes;
        }
    }

    /** The request failed; the agent is ready for the next. */
    record Failed(String message) implements Reply {
        @Override
        public String line() {
            return "failed " + message.replace('\n', ' ');
        }
    }

    /**
     * The reply on {@code line}.
     *
     * @throws IllegalArgumentException if it is none
     */
    static Reply parse(String line) {
        String[] w = line.split(" ");
        try {
            switch (w[0]) {
                case "hello":
                    return new Hello(w[1]);
                case "ready":
                    return new Ready(Long.parseLong(w[1]));
                case "listening":
                    return new Listening(Integer.parseInt(w[1]));
                case "mark":
                    return new Mark(Integer.parseInt(w[1]), Long.parseLong(w[2]));
                case "received":
                    return new Received(Long.parseLong(w[1]), Long.parseLong(w[2]), w[3], longs(w[4]));
                case "sent":
                    return new Sent(Long.parseLong(w[1]), Long.parseLong(w[2]), longs(w[3]),
                            RungTimeline.decode(w[4]), longs(w[5]), Long.parseLong(w[6]));
                case "aborted":
                    return new Aborted(Long.parseLong(w[1]), Long.parseLong(w[2]));
                case "failed":
                    return new Failed(line.substring(Math.min(line.length(), "failed ".length())));
                default:
                    break;
            }
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new IllegalArgumentException("malformed reply '" + line + "'", e);
        }
        throw new IllegalArgumentException("unknown reply '" + line + "'");
    }

    /** Comma-separated, or {@code -} for none. */
    private static String join(long[] values) {
        return values.length == 0 ? "-" : Arrays.stream(values).mapToObj(Long::toString).collect(Collectors.joining(","));
    }

    private static long[] longs(String text) {
        return text.equals("-") ? new long[0] : Arrays.stream(text.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
