package org.adaptivecompress.benchmarks.jmh;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.adaptivecompress.internal.codec.Codecs;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Compress and decompress speed of each rung of the default ladder on the corpus, one 128 KiB
 * block per operation. The {@code bytesIn} and {@code bytesOut} counters give MB/s (bytes per
 * second / 10^6) and the ratio ({@code bytesIn / bytesOut}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RungThroughputBenchmark {

    /** The rungs of the default ladder when this was written; {@code -p rung=...} measures others. */
    @Param({"lz4", "zstd:1", "zstd:3", "zstd:9", "zstd:15", "xz:6"})
    public String rung;

    private byte[][] blocks;
    private byte[][] compressed;
    private int[] compressedLength;
    private byte[] dst;
    private BlockCompressor compressor;
    private BlockDecompressor decompressor;
    private int next;

    /** Bytes in and out of the codec, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        /** Uncompressed bytes processed. */
        public long bytesIn;
        /** Compressed bytes produced or consumed. */
        public long bytesOut;

        /** Zeroes the counters before each iteration. */
        @Setup(Level.Iteration)
        public void reset() {
            bytesIn = 0;
            bytesOut = 0;
        }
    }

    /** Compresses every block once so the decompress benchmark has input. */
    @Setup
    public void setUp() {
        Rung r = Rung.parse(rung);
        blocks = BenchCorpus.blocks();
        compressor = Codecs.newCompressor(r);
        decompressor = Codecs.newDecompressor(r.codec());
        dst = new byte[BenchCorpus.BLOCK * 2];
        compressed = new byte[blocks.length][];
        compressedLength = new int[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            int n = compressor.compress(blocks[i], 0, BenchCorpus.BLOCK, dst, 0, dst.length);
            compressed[i] = Arrays.copyOf(dst, n);
            compressedLength[i] = n;
        }
    }

    /** Frees the native contexts. */
    @TearDown
    public void tearDown() {
        compressor.close();
        decompressor.close();
    }

    /** One block compressed. */
    @Benchmark
    public int compress(Bytes bytes) {
        int i = nextBlock();
        int n = compressor.compress(blocks[i], 0, BenchCorpus.BLOCK, dst, 0, dst.length);
        bytes.bytesIn += BenchCorpus.BLOCK;
        bytes.bytesOut += n;
        return n;
    }

    /** One block decompressed. */
    @Benchmark
    public byte decompress(Bytes bytes) throws DataFormatException {
        int i = nextBlock();
        decompressor.decompress(compressed[i], 0, compressedLength[i], dst, 0, BenchCorpus.BLOCK);
        bytes.bytesIn += BenchCorpus.BLOCK;
        bytes.bytesOut += compressedLength[i];
        return dst[0];
    }

    private int nextBlock() {
        int i = next;
        next = i + 1 == blocks.length ? 0 : i + 1;
        return i;
    }
}
