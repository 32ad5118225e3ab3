package org.adaptivecompress.benchmarks.link.agent;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.adaptivecompress.benchmarks.scenario.Scenario;

/** A line from the driver to an agent (see the package documentation for the protocol). */
public sealed interface Request {

    /** The line, without its newline. */
    String line();

    /** Make the bytes of {@code scenario} from {@code offset} for {@code length} bytes. */
    record Prepare(Scenario scenario, long offset, long length) implements Request {
        @Override
        public String line() {
            return "prepare " + scenario.name() + " " + offset + " " + length;
        }
    }

    /** Listen for one transfer by {@code contender} and verify it. */
    record Receive(String contender, long timeoutMillis, long[] marks, int sampleEvery) implements Request {
        @Override
        public String line() {
            String m = marks.length == 0 ? "-"
                    : Arrays.stream(marks).mapToObj(Long::toString).collect(Collectors.joining(","));
            return "receive " + contender + " " + timeoutMillis + " " + m + " " + sampleEvery;
        }
    }

    /** Connect to {@code port} and send with {@code contender}, cut off after {@code deadlineMillis} (0: never). */
    record Send(String contender, int port, long deadlineMillis) implements Request {
        @Override
        public String line() {
            return "send " + contender + " " + port + " " + deadlineMillis;
        }
    }

    /** Exit. */
    record Quit() implements Request {
        @Override
        public String line() {
            return "quit";
        }
    }

    /**
     * The request on {@code line}.
     *
     * @throws IllegalArgumentException if it is none
     */
    static Request parse(String line) {
        String[] w = line.trim().split(" ");
        try {
            switch (w[0]) {
                case "prepare":
                    return new Prepare(Scenario.parse(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]));
                case "receive":
                    long[] marks = w[3].equals("-") ? new long[0]
                            : Arrays.stream(w[3].split(",")).mapToLong(Long::parseLong).toArray();
                    return new Receive(w[1], Long.parseLong(w[2]), marks, Integer.parseInt(w[4]));
                case "send":
                    return new Send(w[1], Integer.parseInt(w[2]), Long.parseLong(w[3]));
                case "quit":
                    return new Quit();
                default:
                    break;
            }
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new IllegalArgumentException("malformed request '" + line + "'", e);
        }
        throw new IllegalArgumentException("unknown request '" + line + "'");
    }
}
