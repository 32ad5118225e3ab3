package org.adaptivecompress.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Random;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.ScriptedController;

/**
 * Writes the committed binary test vectors of the frame format version this library writes
 * ({@code src/test/resources/vectors/v<version>-*}); those of earlier versions stay as their
 * writers left them, for the readers to keep reading. Run it only when the format changes on
 * purpose, with the version bumped:
 * {@code mvn -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=org.adaptivecompress.format.TestVectors}.
 */
public final class TestVectors {

    /** The salt every vector is written with. */
    static final int SALT = 0x5A17AD0C;
    /** Every vector's input (the mixed vector repeats it once per block). */
    static final byte[] INPUT = input();
    /** One rung per codec, as the vectors are named. */
    static final String[] SINGLE = {"raw", "lz4", "lz4hc:9", "zstd:3", "xz:6", "deflate:6"};
    /** The versions vectors are committed for: every version a reader reads. */
    static final int[] VERSIONS = {FrameFormat.VERSION_1, FrameFormat.VERSION_2, FrameFormat.VERSION};
    /** The mixed vector's ladder; each of its blocks uses the next rung. */
    static final String MIXED_LADDER = "raw,lz4,lz4hc:9,zstd:3,xz:6,deflate:6,zstd:-1";

    private TestVectors() {}

    /** The single-codec vector of {@code rung}, or "mixed", or "zstd-3-history", for {@code version}. */
    static String fileName(int version, String rung) {
        return "v" + version + "-" + rung.replace(':', '-') + ".adc";
    }

    /** The history vector's file for {@code version}. */
    static String historyVector(int version) {
        return fileName(version, "zstd:3-history");
    }

    /** The reset point vector's file (version 3 on). */
    static String resetVector(int version) {
        return fileName(version, "zstd:3-reset");
    }

    /** The vector of a history across a block that does not shrink (version 3 on). */
    static String incompressibleVector(int version) {
        return fileName(version, "zstd:3-incompressible");
    }

    /** The incompressible block's content: {@code java.util.Random} bytes, seeded with {@link #SALT}. */
    static byte[] noise() {
        byte[] noise = new byte[INPUT.length];
        new Random(SALT).nextBytes(noise);
        return noise;
    }

    private static byte[] input() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < 3000; i++) {
            sb.append("frame format v1 test vector line ").append(i).append(": the quick brown fox ")
                    .append(i % 7 == 0 ? "jumps over the lazy dog" : "naps").append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** A stream with one copy of {@link #INPUT} per entry of {@code rungs}, each block at that rung of {@code ladder}. */
    static byte[] encode(String ladder, int... rungs) {
        return encode(false, ladder, rungs);
    }

    /** Like {@link #encode(String, int...)}, with histories on or off. */
    static byte[] encode(boolean history, String ladder, int... rungs) {
        return encode(history, 0, ladder, rungs);
    }

    /** Like {@link #encode(boolean, String, int...)}, with a reset point every {@code resetInterval} bytes. */
    static byte[] encode(boolean history, long resetInterval, String ladder, int... rungs) {
        byte[][] contents = new byte[rungs.length][];
        Arrays.fill(contents, INPUT);
        return encode(history, resetInterval, ladder, contents, rungs);
    }

    /** A stream of one block per entry of {@code contents}, each at the rung of {@code ladder} at the same place in {@code rungs}. */
    static byte[] encode(boolean history, long resetInterval, String ladder, byte[][] contents, int... rungs) {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder(Ladder.parse(ladder))
                .controller(() -> new ScriptedController(rungs)).blockSize(4096).history(history)
                .resetInterval(resetInterval).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(4096)];
        try (AdaptiveCompressor c = new AdaptiveCompressor(options, SALT)) {
            out.write(frame, 0, c.writeStreamHeader(frame, 0));
            for (byte[] content : contents) {
                out.write(frame, 0, c.compressBlock(content, 0, content.length, frame, 0));
                c.update(PipelineSample.ofFifo(0, 0, 0));
            }
            out.write(frame, 0, c.writeEndOfStream(frame, 0));
        }
        return out.toByteArray();
    }

    /** The single-codec vector: one block at {@code rung}. */
    static byte[] encodeSingle(String rung) {
        return rung.equals("raw") ? encode("raw", 0) : encode("raw," + rung, 1);
    }

    /** The mixed vector: one block at every rung of {@link #MIXED_LADDER}, in order. */
    static byte[] encodeMixed() {
        int[] rungs = new int[Ladder.parse(MIXED_LADDER).size()];
        for (int i = 0; i < rungs.length; i++) {
            rungs[i] = i;
        }
        return encode(MIXED_LADDER, rungs);
    }

    /**
     * The history vector: three blocks at zstd:3 in one history (the first opens its frame, the
     * others continue it), then one raw block.
     */
    static byte[] encodeHistory() {
        return encode(true, "raw,zstd:3", 1, 1, 1, 0);
    }

    /**
     * The reset point vector: zstd:3 blocks in one history, the fourth a reset point (the
     * first block after three blocks' content) that starts the history anew, the fifth
     * continuing it.
     */
    static byte[] encodeReset() {
        return encode(true, 3L * INPUT.length, "raw,zstd:3", 1, 1, 1, 1, 1);
    }

    /**
     * The incompressible vector: zstd:3 blocks in one history, the input, then {@link #noise()},
     * which zstd stores in raw blocks inside the history's frame (a payload a few bytes longer
     * than the content), then the input again, continuing the frame and matching the first.
     */
    static byte[] encodeIncompressible() {
        return encode(true, 0, "raw,zstd:3", new byte[][] {INPUT, noise(), INPUT}, 1, 1, 1);
    }

    /** Writes every vector into {@code args[0]}, default {@code core/src/test/resources/vectors}. */
    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "core/src/test/resources/vectors");
        Files.createDirectories(dir);
        Files.write(dir.resolve("input.txt"), INPUT);
        for (String rung : SINGLE) {
            Files.write(dir.resolve(fileName(FrameFormat.VERSION, rung)), encodeSingle(rung));
        }
        Files.write(dir.resolve(fileName(FrameFormat.VERSION, "mixed")), encodeMixed());
        Files.write(dir.resolve(historyVector(FrameFormat.VERSION)), encodeHistory());
        Files.write(dir.resolve(resetVector(FrameFormat.VERSION)), encodeReset());
        Files.write(dir.resolve("noise.bin"), noise());
        Files.write(dir.resolve(incompressibleVector(FrameFormat.VERSION)), encodeIncompressible());
    }
}
