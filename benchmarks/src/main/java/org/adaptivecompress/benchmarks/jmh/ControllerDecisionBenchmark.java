package org.adaptivecompress.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.AdocController;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of one controller decision: each controller on a stream of observations as the
 * engine makes them (a clock that runs on, the FIFO alternately growing and draining, the rung
 * the controller chose last), and the engine's whole {@link AdaptiveCompressor#update}
 * (observation built, controller asked, statistics updated) as the pipeline pays it once per
 * block. The controller benchmarks build their observation in the timed method, as the engine
 * does, so their time and allocation include the {@link Observation}'s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ControllerDecisionBenchmark {

    private static final Ladder LADDER = Ladder.defaultLadder();
    private static final int TOP_RUNG = LADDER.top();

    private LevelController adoc;
    private LevelController defaultController;
    private int adocRung;
    private int defaultRung;
    private AdaptiveCompressor engine;
    private long clock;
    private long fifo;
    private long drained;
    private int next;

    /** Both controllers at their first rung, and an engine that has compressed one block. */
    @Setup
    public void setUp() {
        adoc = new AdocController();
        adocRung = adoc.initialRung(LADDER);
        defaultController = LevelControllers.defaultController().get();
        defaultRung = defaultController.initialRung(LADDER);
        engine = new AdaptiveCompressor(AdaptiveCompressionOptions.builder().build());
        byte[] block = BenchCorpus.blocks()[0];
        engine.compressBlock(block, 0, block.length, new byte[AdaptiveCompressor.maxFrameLength(block.length)], 0);
    }

    /** Frees the engine. */
    @TearDown
    public void tearDown() {
        engine.close();
    }

    /** AdOC's rule on the next observation. */
    @Benchmark
    public int adocNextRung() {
        adocRung = adoc.decide(nextObservation(adocRung)).rung();
        return adocRung;
    }

    /** The default controller on the next observation. */
    @Benchmark
    public int defaultNextRung() {
        defaultRung = defaultController.decide(nextObservation(defaultRung)).rung();
        return defaultRung;
    }

    /** The engine's per-block decision with the default controller, FIFO alternately growing and draining. */
    @Benchmark
    public int engineUpdate() {
        long start = fifo;
        advance();
        engine.update(PipelineSample.ofFifo(start, fifo, drained));
        return engine.currentRung();
    }

    /**
     * A block compressed at {@code rung} 1 ms after the last, in 0.5 ms, from 128 KiB to 40 KB,
     * while the sender drained 100 KB: the FIFO grows by 150 KB and drains by 300 KB in turn,
     * so the controllers climb, hold and fall.
     */
    private Observation nextObservation(int rung) {
        long start = fifo;
        advance();
        return Observation.builder().blockNumber(next).rung(rung).topRung(TOP_RUNG).fifo(start, fifo)
                .block(131_072, 40_000, false).compressNanos(500_000).drainedBytes(drained).nanoTime(clock).build();
    }

    private void advance() {
        clock += 1_000_000;
        drained += 100_000;
        fifo = (next++ & 1) == 0 ? fifo + 150_000 : Math.max(0, fifo - 300_000);
    }
}
