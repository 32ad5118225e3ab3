package org.adaptivecompress.benchmarks.jmh;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
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
 * What the frame format and its checksums cost: the engine's block path
 * ({@link AdaptiveCompressor#compressBlock} and {@link BlockHeader#parse} + {@link BlockDecoder#decode})
 * against calling zstd-jni or lz4-java directly on the same 128 KiB blocks. Run with
 * {@code -prof gc} to see the allocation per block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FramingOverheadBenchmark {

    /** The rung both paths use. */
    @Param({"lz4", "zstd:3"})
    public String rung;

    private static final int SALT = 0x5EED;

    private byte[][] blocks;
    private byte[][] frames;
    private byte[][] direct;
    private int[] directLength;
    private byte[] dst;
    private byte[] out;
    private AdaptiveCompressor engine;
    private final BlockHeader header = new BlockHeader();
    private BlockDecoder decoder;
    private ZstdCompressCtx zstdCompress;
    private ZstdDecompressCtx zstdDecompress;
    private LZ4Compressor lz4Compress;
    private LZ4SafeDecompressor lz4Decompress;
    private int next;

    /** Builds both paths and encodes every block with each, for the decode benchmarks. */
    @Setup
    public void setUp() {
        blocks = BenchCorpus.blocks();
        engine = new AdaptiveCompressor(AdaptiveCompressionOptions.builder().ladder(Ladder.parse("raw," + rung))
                .controller("fixed:1").build(), SALT);
        decoder = new BlockDecoder();
        dst = new byte[AdaptiveCompressor.maxFrameLength(BenchCorpus.BLOCK)];
        out = new byte[BenchCorpus.BLOCK];
        if (rung.equals("lz4")) {
            lz4Compress = LZ4Factory.fastestInstance().fastCompressor();
            lz4Decompress = LZ4Factory.fastestInstance().safeDecompressor();
        } else {
            zstdCompress = new ZstdCompressCtx();
            zstdCompress.setLevel(Integer.parseInt(rung.substring("zstd:".length())));
            zstdDecompress = new ZstdDecompressCtx();
        }
        frames = new byte[blocks.length][];
        direct = new byte[blocks.length][];
        directLength = new int[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            frames[i] = Arrays.copyOf(dst, adaptiveCompress());
            directLength[i] = directCompress();
            direct[i] = Arrays.copyOf(dst, directLength[i]);
        }
    }

    /** Frees the native contexts. */
    @TearDown
    public void tearDown() {
        engine.close();
        decoder.close();
        if (zstdCompress != null) {
            zstdCompress.close();
            zstdDecompress.close();
        }
    }

    /** The engine's block path: compress, CRC32C, header. */
    @Benchmark
    public int adaptiveCompress() {
        return engine.compressBlock(blocks[nextBlock()], 0, BenchCorpus.BLOCK, dst, 0);
    }

    /** The codec alone. */
    @Benchmark
    public int directCompress() {
        byte[] src = blocks[nextBlock()];
        if (lz4Compress != null) {
            return lz4Compress.compress(src, 0, BenchCorpus.BLOCK, dst, 0, dst.length);
        }
        return zstdCompress.compressByteArray(dst, 0, dst.length, src, 0, BenchCorpus.BLOCK);
    }

    /** The reader's block path: parse and check the header, decode, verify the CRC32C. */
    @Benchmark
    public byte adaptiveDecode() throws IOException {
        byte[] frame = frames[nextBlock()];
        header.parse(frame, 0, SALT, FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, 0);
        decoder.decode(header, frame, FrameFormat.BLOCK_HEADER_LENGTH, out, 0, 0);
        return out[0];
    }

    /** The codec alone. */
    @Benchmark
    public byte directDecode() {
        int i = nextBlock();
        if (lz4Decompress != null) {
            lz4Decompress.decompress(direct[i], 0, directLength[i], out, 0, BenchCorpus.BLOCK);
        } else {
            zstdDecompress.decompressByteArray(out, 0, BenchCorpus.BLOCK, direct[i], 0, directLength[i]);
        }
        return out[0];
    }

    private int nextBlock() {
        int i = next;
        next = i + 1 == blocks.length ? 0 : i + 1;
        return i;
    }
}
