package org.adaptivecompress.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.adaptivecompress.control.AdocController;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.engine.AdaptiveCompressor;
import org.adaptivecompress.engine.CompressionOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of one controller decision: the controller alone on a prepared observation, and the
 * engine's whole {@link AdaptiveCompressor#update} (observation built, controller asked, statistics
 * updated) as the pipeline pays it once per block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ControllerDecisionBenchmark {

    private final Observation[] observations = new Observation[4];
    private LevelController adoc;
    private LevelController defaultController;
    private AdaptiveCompressor engine;
    private long fifo;
    private long drained;
    private int next;

    /** Observations that make the rule climb, hold and fall, so every branch is taken. */
    @Setup
    public void setUp() {
        adoc = new AdocController();
        defaultController = LevelControllers.defaultController().get();
        long[][] fifos = {{0, 200_000}, {200_000, 400_000}, {400_000, 400_000}, {400_000, 100_000}};
        for (int i = 0; i < observations.length; i++) {
            observations[i] = Observation.builder().rung(i + 1).topRung(7).fifo(fifos[i][0], fifos[i][1])
                    .block(131_072, 40_000, false).compressNanos(500_000).drainedBytes(i * 1_000_000L)
                    .nanoTime(i * 1_000_000L).build();
        }
        engine = new AdaptiveCompressor(CompressionOptions.builder().build());
        byte[] block = BenchCorpus.blocks()[0];
        engine.compressBlock(block, 0, block.length, new byte[AdaptiveCompressor.maxFrameLength(block.length)], 0);
    }

    /** Frees the engine. */
    @TearDown
    public void tearDown() {
        engine.close();
    }

    /** AdOC's rule on one observation. */
    @Benchmark
    public int adocNextRung() {
        return adoc.nextRung(observations[nextObservation()]);
    }

    /** The default controller on one observation. */
    @Benchmark
    public int defaultNextRung() {
        return defaultController.nextRung(observations[nextObservation()]);
    }

    /** The engine's per-block decision with the default controller, FIFO alternately growing and draining. */
    @Benchmark
    public int engineUpdate() {
        long start = fifo;
        fifo = (next++ & 1) == 0 ? fifo + 150_000 : Math.max(0, fifo - 300_000);
        drained += 100_000;
        engine.update(start, fifo, drained);
        return engine.currentRung();
    }

    private int nextObservation() {
        int i = next;
        next = (i + 1) & 3;
        return i;
    }
}
