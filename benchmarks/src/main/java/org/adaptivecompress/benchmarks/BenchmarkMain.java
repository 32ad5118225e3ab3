package org.adaptivecompress.benchmarks;

import java.util.Arrays;
import org.adaptivecompress.benchmarks.link.LinkBenchmark;
import org.adaptivecompress.benchmarks.link.SimulatorCheck;
import org.adaptivecompress.benchmarks.link.WritePatterns;
import org.adaptivecompress.benchmarks.link.agent.AgentMain;
import org.adaptivecompress.benchmarks.link.net.Relay;

/**
 * Entry point of {@code benchmarks.jar}: {@code link [options]} runs the link benchmark,
 * {@code agent sender|receiver|relay} is one of the processes it starts,
 * {@code write-patterns [options]} times loopback TCP under patterns of write sizes
 * ({@link WritePatterns}), {@code sizes [options] [FILE...]} compares wire bytes with native
 * {@code zstd} ({@link WireSizes}), {@code memory [options]} measures what a reader of histories
 * holds ({@link DecoderMemory}), {@code decode-cost [options]} what a reader spends on a stream
 * that primes as often as the format allows ({@link DecodeCost}), {@code simulate [options]} checks the controller simulator against a
 * run's CSV ({@link SimulatorCheck}), anything else is handed to JMH's own command line (so
 * {@code -f 1 -wi 2 -prof gc Framing} works as usual).
 */
public final class BenchmarkMain {

    private BenchmarkMain() {}

    /** Dispatches on the first argument. */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("link")) {
            System.exit(LinkBenchmark.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length == 2 && args[0].equals("agent")) {
            System.exit(args[1].equals("relay") ? Relay.run() : AgentMain.run(args[1]));
        }
        if (args.length > 0 && args[0].equals("write-patterns")) {
            System.exit(WritePatterns.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        if (args.length > 0 && args[0].equals("sizes")) {
            System.exit(WireSizes.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        if (args.length > 0 && args[0].equals("memory")) {
            System.exit(DecoderMemory.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        if (args.length > 0 && args[0].equals("decode-cost")) {
            System.exit(DecodeCost.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        if (args.length > 0 && args[0].equals("simulate")) {
            System.exit(SimulatorCheck.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        org.openjdk.jmh.Main.main(args);
    }
}
