package org.adaptivecompress.benchmarks.jmh;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a history ({@code AdaptiveCompressionOptions.Builder#history}) buys a rung held for a whole
 * stream: the engine's block path at one fixed rung, with and without one, over 8 MiB of the
 * Canterbury prose (four texts, 1.2 MB, repeated: what only a window across blocks sees) and of
 * generated JSON events (which repeat within a block already), one 128 KiB block per operation.
 * The compressing stream runs on through the input again and again, so its history stays warm
 * as a held rung's would; the decode benchmark reads one stream of the input's blocks, starting
 * it again at each pass. {@link RungThroughputBenchmark.Bytes}' counters give MB/s and the ratio.
 *
 * <p>{@link #primedBlock} measures what a rung pays to start a history: with {@code history}
 * on, its one block at the rung begins a history primed with the stream's last bytes (2 MiB,
 * 512 KiB for the rungs slow to load them), since nine raw blocks before it make the
 * rung's history miss over 1 MiB of the stream; with it off the same block is compressed on
 * its own. The difference between the two is the prime's cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HistoryBenchmark {

    /** The rung: levels 1 and 3, whose histories get the larger hash table, and the slower rungs, whose primes load slowest. */
    @Param({"zstd:1", "zstd:3", "zstd:9", "zstd:15", "xz:6"})
    public String rung;

    /** {@code text} (repeated prose) or {@code json} (generated events). */
    @Param({"text", "json"})
    public String data;

    /** Whether the stream keeps a history across blocks. */
    @Param({"false", "true"})
    public boolean history;

    /** Raw blocks before each block at the rung in {@link #primedBlock}: 1.125 MiB, past the 1 MiB a history may miss. */
    private static final int RAW_BLOCKS_BETWEEN = 9;

    private static final int INPUT = 8 << 20;
    private static final int SALT = 0x5EED;

    private byte[] input;
    private byte[][] frames;
    private byte[] dst;
    private byte[] out;
    private AdaptiveCompressor engine;
    private AdaptiveCompressor primingEngine;
    private int nextPrimed;
    private long primedDrained;
    private final BlockHeader header = new BlockHeader();
    private BlockDecoder decoder;
    /** Log2 of the window the stream declares with histories, 0 without: what its reader is told. */
    private int streamWindowLog;
    private int nextCompressed;
    private int nextDecoded;

    /** Generates the input and encodes one stream of it for the decode benchmark. */
    @Setup
    public void setUp() {
        DataKind kind = switch (data) {
            case "text" -> DataKind.TEXT;
            case "json" -> DataKind.JSON_EVENTS;
            default -> throw new IllegalArgumentException("data must be text or json, was " + data);
        };
        input = kind.generate(INPUT);
        dst = new byte[AdaptiveCompressor.maxFrameLength(BenchCorpus.BLOCK)];
        out = new byte[BenchCorpus.BLOCK];
        try (AdaptiveCompressor once = newEngine(LevelControllers.byName("fixed:1"))) {
            frames = new byte[INPUT / BenchCorpus.BLOCK][];
            for (int i = 0; i < frames.length; i++) {
                int n = once.compressBlock(input, i * BenchCorpus.BLOCK, BenchCorpus.BLOCK, dst, 0);
                frames[i] = Arrays.copyOf(dst, n);
            }
        }
        engine = newEngine(LevelControllers.byName("fixed:1"));
        primingEngine = newEngine(RungAfterRawBlocks::new);
        decoder = new BlockDecoder();
        streamWindowLog = history ? Integer.numberOfTrailingZeros(options().build().streamWindow()) : 0;
    }

    /** An engine over the ladder {@code raw,<rung>}, with or without histories as the parameter says. */
    private AdaptiveCompressor newEngine(Supplier<? extends LevelController> controller) {
        return new AdaptiveCompressor(options().controller(controller).build(), SALT);
    }

    /** The stream's options but its controller: the ladder {@code raw,<rung>}, histories as the parameter says. */
    private AdaptiveCompressionOptions.Builder options() {
        return AdaptiveCompressionOptions.builder().ladder(Ladder.parse("raw," + rung)).history(history);
    }

    /** Frees the native contexts. */
    @TearDown
    public void tearDown() {
        engine.close();
        primingEngine.close();
        decoder.close();
    }

    /** The next block of the input, compressed on the one stream that runs through all of them. */
    @Benchmark
    public int compress(RungThroughputBenchmark.Bytes bytes) {
        int n = engine.compressBlock(input, nextCompressed * BenchCorpus.BLOCK, BenchCorpus.BLOCK, dst, 0);
        nextCompressed = (nextCompressed + 1) % frames.length;
        bytes.bytesIn += BenchCorpus.BLOCK;
        bytes.bytesOut += n;
        return n;
    }

    /**
     * {@value #RAW_BLOCKS_BETWEEN} raw blocks, then one at the rung: with a history, one that
     * starts it primed. Milliseconds per operation; the raw blocks cost the same either way.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int primedBlock() {
        int last = 0;
        for (int i = 0; i <= RAW_BLOCKS_BETWEEN; i++) {
            last = primingEngine.compressBlock(input, nextPrimed * BenchCorpus.BLOCK, BenchCorpus.BLOCK, dst, 0);
            nextPrimed = (nextPrimed + 1) % frames.length;
            primedDrained += last;
            primingEngine.update(PipelineSample.ofFifo(0, 0, primedDrained)); // a sink that took the frame at once; the controller picks the rung
        }
        return last;
    }

    /** The next frame parsed, decoded and verified, in stream order. */
    @Benchmark
    public byte decode(RungThroughputBenchmark.Bytes bytes) throws IOException {
        if (nextDecoded == 0) {
            decoder.newStream(streamWindowLog);
        }
        byte[] frame = frames[nextDecoded];
        header.parse(frame, 0, SALT, history, FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, 0);
        decoder.decode(header, frame, FrameFormat.BLOCK_HEADER_LENGTH, out, 0, 0);
        nextDecoded = (nextDecoded + 1) % frames.length;
        bytes.bytesIn += BenchCorpus.BLOCK;
        bytes.bytesOut += frame.length;
        return out[0];
    }

    /** Raw for {@value #RAW_BLOCKS_BETWEEN} blocks, then rung 1 for one, over and over. */
    static final class RungAfterRawBlocks implements LevelController {
        private int blocks;

        @Override
        public int initialRung(Ladder ladder) {
            return 0;
        }

        @Override
        public Decision decide(Observation observation) {
            blocks++;
            return Decision.of(blocks % (RAW_BLOCKS_BETWEEN + 1) == RAW_BLOCKS_BETWEEN ? 1 : 0, Reason.FIXED);
        }
    }
}
