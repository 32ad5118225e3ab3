package org.adaptivecompress.benchmarks;

import java.util.Arrays;
import org.adaptivecompress.benchmarks.link.LinkBenchmark;

/**
 * Entry point of {@code benchmarks.jar}: {@code link [options]} runs the link benchmark, anything
 * else is handed to JMH's own command line (so {@code -f 1 -wi 2 -prof gc Framing} works as usual).
 */
public final class BenchmarkMain {

    private BenchmarkMain() {}

    /** Dispatches on the first argument. */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("link")) {
            System.exit(LinkBenchmark.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        org.openjdk.jmh.Main.main(args);
    }
}
