package org.adaptivecompress.kafka;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictTrainer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Trains a zstd dictionary for {@code adaptive.zstd.dictionaries} from sample records.
 *
 * <pre>
 * java -cp adaptive-compress-kafka.jar:adaptive-compress-core.jar:zstd-jni.jar \
 *     org.adaptivecompress.kafka.DictionaryTrainer SAMPLES OUT.dict [DICT_SIZE_BYTES]
 * </pre>
 *
 * SAMPLES is a directory (each regular file one record, e.g. values dumped by a consumer) or a
 * file with one record per line (JSON lines, log lines). The default size, 16 KiB, follows zstd's
 * advice of about 100x smaller than the samples for records of ~1 KB.
 */
public final class DictionaryTrainer {

    /** Dictionary size used when none is given. */
    public static final int DEFAULT_DICTIONARY_SIZE = 16 * 1024;

    private DictionaryTrainer() {}

    /** Command-line entry point; exits with status 2 on bad arguments. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: DictionaryTrainer SAMPLES_DIR_OR_LINES_FILE OUT.dict [DICT_SIZE_BYTES]");
            System.exit(2);
            return;
        }
        int size = args.length == 3 ? Integer.parseInt(args[2]) : DEFAULT_DICTIONARY_SIZE;
        List<byte[]> samples = readSamples(Paths.get(args[0]));
        byte[] dictionary = train(samples, size);
        Files.write(Paths.get(args[1]), dictionary);
        PrintStream out = System.out;
        out.println("trained dictionary id " + Zstd.getDictIdFromDict(dictionary) + ", " + dictionary.length
                + " bytes, from " + samples.size() + " samples -> " + args[1]);
    }

    /**
     * Trains a dictionary of at most {@code dictionarySize} bytes from {@code samples}.
     *
     * @throws IllegalArgumentException if there are too few samples for zstd to train on
     */
    public static byte[] train(List<byte[]> samples, int dictionarySize) {
        if (dictionarySize < 256) {
            throw new IllegalArgumentException("dictionarySize must be at least 256 bytes, was " + dictionarySize);
        }
        long total = 0;
        for (byte[] s : samples) {
            total += s.length;
        }
        if (samples.size() < 10 || total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("need at least 10 samples of under 2 GiB in all to train a dictionary, got "
                    + samples.size() + " samples of " + total + " bytes");
        }
        ZstdDictTrainer trainer = new ZstdDictTrainer((int) total, dictionarySize);
        for (byte[] s : samples) {
            trainer.addSample(s);
        }
        try {
            return trainer.trainSamples();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("zstd could not train a dictionary from " + samples.size()
                    + " samples (" + total + " bytes): " + e.getMessage(), e);
        }
    }

    /** Reads samples: every regular file of a directory, or every non-empty line of a file. */
    public static List<byte[]> readSamples(Path source) throws IOException {
        List<byte[]> samples = new ArrayList<>();
        if (Files.isDirectory(source)) {
            try (Stream<Path> files = Files.list(source)) {
                for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                    if (Files.isRegularFile(p)) {
                        samples.add(Files.readAllBytes(p));
                    }
                }
            }
        } else {
            for (String line : Files.readAllLines(source, StandardCharsets.UTF_8)) {
                if (!line.isEmpty()) {
                    samples.add(line.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return samples;
    }
}
