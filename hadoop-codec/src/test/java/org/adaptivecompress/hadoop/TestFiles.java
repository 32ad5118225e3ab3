package org.adaptivecompress.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.adaptivecompress.internal.format.FrameFormat;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.util.ReflectionUtils;

/** Test data and helpers shared by the codec's tests. */
final class TestFiles {

    static final List<String> TEXT_CORPUS = List.of("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt");

    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
        "theta", "iota", "kappa", "lambda", "mu"};

    private TestFiles() {}

    /** Lines of random words: some empty, some long. */
    static List<String> randomLines(long seed, int count) {
        Random r = new Random(seed);
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int words = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(r.nextInt(8) == 0 ? 40 : 6);
            StringBuilder sb = new StringBuilder();
            for (int w = 0; w < words; w++) {
                sb.append(w > 0 ? " " : "").append(WORDS[r.nextInt(WORDS.length)]);
            }
            lines.add(sb.toString());
        }
        return lines;
    }

    static byte[] join(List<String> lines, String delimiter, boolean trailing) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            sb.append(lines.get(i));
            if (i < lines.size() - 1 || trailing) {
                sb.append(delimiter);
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static AdaptiveCodec codec(Configuration conf) {
        return ReflectionUtils.newInstance(AdaptiveCodec.class, conf);
    }

    /** Compresses {@code data} with the codec's stream into a new array. */
    static byte[] compress(AdaptiveCodec codec, byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CompressionOutputStream out = codec.createOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    static void writeCompressed(AdaptiveCodec codec, byte[] data, Path file) throws IOException {
        try (OutputStream out = codec.createOutputStream(Files.newOutputStream(file))) {
            out.write(data);
        }
    }

    /** The reset points of the single stream {@code stream}, walking its block headers. */
    static int resetPoints(byte[] stream) {
        int count = 0;
        int at = FrameFormat.STREAM_HEADER_LENGTH;
        while ((stream[at] & 0xFF) != FrameFormat.END_OF_STREAM) {
            count += (stream[at + 1] & FrameFormat.BLOCK_FLAG_RESET) != 0 ? 1 : 0;
            at += FrameFormat.BLOCK_HEADER_LENGTH + FrameFormat.getInt(stream, at + 8);
        }
        return count;
    }

    static org.apache.hadoop.fs.Path hadoopPath(Path file) {
        return new org.apache.hadoop.fs.Path(file.toUri());
    }
}
