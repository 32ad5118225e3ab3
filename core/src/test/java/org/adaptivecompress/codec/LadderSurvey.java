package org.adaptivecompress.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.adaptivecompress.internal.codec.Codecs;
import org.adaptivecompress.testing.DataKind;

/**
 * Measures every candidate rung's compression speed, decompression speed and ratio on the
 * project's data, block by block as the stream compresses, and marks the rungs another rung
 * beats on both speed and ratio. Its output is docs/LADDER.md's table. Run with
 * {@code mvn -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=org.adaptivecompress.codec.LadderSurvey}.
 */
public final class LadderSurvey {

    private static final String[] CANDIDATES = {
        "lz4", "lz4hc:4", "lz4hc:9", "zstd:-5", "zstd:-1", "zstd:1", "zstd:2", "zstd:3", "zstd:5", "zstd:7",
        "zstd:9", "zstd:12", "zstd:15", "zstd:19", "xz:1", "xz:3", "xz:6", "deflate:1", "deflate:6", "deflate:9"};
    private static final DataKind[] KINDS = {
        DataKind.TEXT, DataKind.HTML, DataKind.URLS, DataKind.PROTOBUF, DataKind.PDF, DataKind.JSON_EVENTS,
        DataKind.LOG_LINES};
    private static final int BLOCK = 128 * 1024;
    private static final int PER_KIND = 2 << 20;

    private LadderSurvey() {}

    /** One candidate's figures over every kind. */
    private static final class Figures {
        final String rung;
        double compressMbps;
        double decompressMbps;
        double ratio;
        String dominatedBy = "";

        Figures(String rung) {
            this.rung = rung;
        }
    }

    /** Prints the markdown table. */
    public static void main(String[] args) throws Exception {
        List<byte[]> inputs = new ArrayList<>();
        for (DataKind kind : KINDS) {
            inputs.add(kind.generate(PER_KIND));
        }
        List<Figures> all = new ArrayList<>();
        for (String spec : CANDIDATES) {
            all.add(measure(Rung.parse(spec), inputs));
            System.err.println("measured " + spec);
        }
        for (Figures f : all) {
            for (Figures g : all) {
                if (g != f && g.compressMbps > f.compressMbps && g.ratio > f.ratio) {
                    f.dominatedBy = g.rung;
                    break;
                }
            }
        }
        System.out.println("| rung | compress MB/s | decompress MB/s | ratio | kept? |");
        System.out.println("|---|---:|---:|---:|---|");
        for (Figures f : all) {
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.3f | %s |%n", f.rung, f.compressMbps,
                    f.decompressMbps, f.ratio, f.dominatedBy.isEmpty() ? "on the frontier" : "no: " + f.dominatedBy
                            + " is faster and smaller");
        }
    }

    private static Figures measure(Rung rung, List<byte[]> inputs) throws Exception {
        Figures f = new Figures(rung.toString());
        byte[] compressed = new byte[BLOCK * 2];
        byte[] restored = new byte[BLOCK];
        long in = 0;
        long out = 0;
        long compressNanos = 0;
        long decompressNanos = 0;
        try (BlockCompressor c = Codecs.newCompressor(rung); BlockDecompressor d = Codecs.newDecompressor(rung.codec())) {
            for (int pass = 0; pass < 2; pass++) { // the first pass warms the JIT and native contexts up
                in = out = compressNanos = decompressNanos = 0;
                for (byte[] data : inputs) {
                    for (int off = 0; off < data.length; off += BLOCK) {
                        int len = Math.min(BLOCK, data.length - off);
                        long t0 = System.nanoTime();
                        int n = c.compress(data, off, len, compressed, 0, compressed.length);
                        long t1 = System.nanoTime();
                        d.decompress(compressed, 0, n, restored, 0, len);
                        long t2 = System.nanoTime();
                        compressNanos += t1 - t0;
                        decompressNanos += t2 - t1;
                        in += len;
                        out += n;
                    }
                }
            }
        }
        f.compressMbps = in / 1e6 / (compressNanos / 1e9);
        f.decompressMbps = in / 1e6 / (decompressNanos / 1e9);
        f.ratio = (double) in / out;
        return f;
    }
}
