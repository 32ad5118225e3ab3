package org.adaptivecompress.benchmarks;

import com.sun.management.ThreadMXBean;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * {@code decode-cost}: the CPU and allocation per content byte a reader spends on a stream that
 * primes a history on (nearly) every block, as often as the format lets a stream prime (one prime
 * per 64 KiB of content, rule 8 of docs/FORMAT.md), against the same blocks at the same rungs
 * decoding alone. The writer rotates over up to 16 history rungs with blocks just large enough
 * that each rung has missed over 1 MiB when its turn comes back, so each of its blocks starts
 * its history primed with the stream's last 2 MiB: the costliest stream a peer can send of
 * these rungs. Timed on the thread's CPU clock, allocation from the JVM's per-thread count; the
 * least of five decodes. {@code decode-cost [--bytes N]}.
 */
public final class DecodeCost {

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final int ROUNDS = 5;

    /** A stream shape: the ladder it rotates over and its block size. */
    private record Shape(String name, String ladder, int blockSize) {}

    private static final List<Shape> SHAPES = List.of(
            // 12 zstd rungs that prime with 2 MiB: each comes back after 11 blocks of 96 KiB, 1056 KiB.
            new Shape("zstd:1-12", "raw,zstd:1,zstd:2,zstd:3,zstd:4,zstd:5,zstd:6,zstd:7,zstd:8,zstd:9,zstd:10,zstd:11,"
                    + "zstd:12", 96 << 10),
            // 16 rungs, all priming with 2 MiB: each comes back after 15 blocks of 72 KiB, 1080 KiB.
            new Shape("zstd:1-12 + xz:0-3", "raw,zstd:1,zstd:2,zstd:3,zstd:4,zstd:5,zstd:6,zstd:7,zstd:8,zstd:9,"
                    + "zstd:10,zstd:11,zstd:12,xz:0,xz:1,xz:2,xz:3", 72 << 10));

    private DecodeCost() {}

    /** Writes, decodes and prints the table; returns the exit status. */
    public static int run(String[] args, PrintStream out) throws IOException {
        int bytes = 48 << 20;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--bytes")) {
                bytes = Integer.parseInt(args[++i]);
            } else {
                throw new IllegalArgumentException("usage: decode-cost [--bytes BYTES]");
            }
        }
        byte[] data = Scenario.parse("homogeneous:7001").generate(bytes);
        out.printf(Locale.ROOT, "%d MB of homogeneous:7001; least of %d decodes on the thread's CPU clock%n%n",
                data.length / 1_000_000, ROUNDS);
        out.println("| stream | blocks | primed blocks | CPU ns/B alone | CPU ns/B primed | CPU x |"
                + " allocated B/B alone | allocated B/B primed | allocated x |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Shape shape : SHAPES) {
            byte[] alone = write(data, shape, false);
            byte[] primed = write(data, shape, true);
            long[] blocks = blocksAndPrimes(primed);
            Cost a = decode(alone, data.length);
            Cost p = decode(primed, data.length);
            out.printf(Locale.ROOT, "| %s, %d KiB blocks | %d | %d | %.2f | %.2f | %.1f | %.3f | %.3f | %.1f |%n",
                    shape.name(), shape.blockSize() >> 10, blocks[0], blocks[1], a.cpuPerByte(), p.cpuPerByte(),
                    p.cpuPerByte() / a.cpuPerByte(), a.allocatedPerByte(), p.allocatedPerByte(),
                    p.allocatedPerByte() / a.allocatedPerByte());
        }
        return 0;
    }

    private static byte[] write(byte[] data, Shape shape, boolean history) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = AdaptiveOutputStream.builder().ladder(shape.ladder()).controller(RungRotation::new)
                .blockSize(shape.blockSize()).history(history).build(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    /** Blocks and primed blocks of the stream, from its block headers. */
    private static long[] blocksAndPrimes(byte[] stream) throws FrameFormatException {
        try (BlockDecoder decoder = new BlockDecoder()) {
            FrameParser parser = new FrameParser(decoder, 64 << 20);
            parser.streamHeader(stream, 0);
            int offset = FrameFormat.STREAM_HEADER_LENGTH;
            long blocks = 0;
            long primes = 0;
            while (true) {
                BlockHeader h = parser.blockHeader(stream, offset, offset);
                if (h.isEndOfStream()) {
                    return new long[] {blocks, primes};
                }
                blocks++;
                primes += h.primesHistory() ? 1 : 0;
                offset += parser.blockHeaderLength() + h.storedLength();
            }
        }
    }

    private static Cost decode(byte[] stream, long content) throws IOException {
        long cpu = Long.MAX_VALUE;
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long id = Thread.currentThread().getId();
            long allocatedBefore = THREADS.getThreadAllocatedBytes(id);
            long cpuBefore = THREADS.getCurrentThreadCpuTime();
            try (InputStream in = AdaptiveInputStream.builder().build(new ByteArrayInputStream(stream))) {
                if (in.transferTo(OutputStream.nullOutputStream()) != content) {
                    throw new IllegalStateException("the stream did not decode to its content");
                }
            }
            cpu = Math.min(cpu, THREADS.getCurrentThreadCpuTime() - cpuBefore);
            allocated = Math.min(allocated, THREADS.getThreadAllocatedBytes(id) - allocatedBefore);
        }
        return new Cost((double) cpu / content, (double) allocated / content);
    }

    private record Cost(double cpuPerByte, double allocatedPerByte) {}
}
