package org.adaptivecompress.examples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Input for the framework examples: the project's reference corpus when it can be found
 * (system property {@code adaptive.corpus.dir}, else {@code ../shared/data/corpus}), otherwise
 * generated data, so that every example runs anywhere.
 */
public final class ExampleData {

    /** The corpus's plain English text files. */
    public static final List<String> TEXT_FILES = List.of("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt");

    private static final String[] WORDS = {"the", "adaptive", "compression", "of", "a", "link", "block", "rung",
        "ladder", "queue", "sender", "fifo", "level", "climbs", "halves", "when", "drains", "and", "to", "data"};

    private ExampleData() {}

    /** The corpus directory, or {@code null} when it is absent. */
    public static Path corpusDirectory() {
        Path path = Path.of(System.getProperty("adaptive.corpus.dir", "../shared/data/corpus"));
        return Files.isDirectory(path) ? path : null;
    }

    /** The corpus's text files that exist; empty when the corpus is absent. */
    public static List<Path> corpusTextFiles() {
        Path dir = corpusDirectory();
        List<Path> files = new ArrayList<>();
        if (dir != null) {
            for (String name : TEXT_FILES) {
                Path file = dir.resolve(name);
                if (Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        }
        return files;
    }

    /**
     * {@code size} bytes of the corpus's text files concatenated and repeated, or of generated
     * English-like text when the corpus is absent.
     */
    public static byte[] text(int size) throws IOException {
        ByteArrayOutputStream source = new ByteArrayOutputStream();
        for (Path file : corpusTextFiles()) {
            source.write(Files.readAllBytes(file));
        }
        if (source.size() == 0) {
            source.write(generatedText(1 << 20, 1).getBytes(StandardCharsets.UTF_8));
        }
        byte[] all = source.toByteArray();
        byte[] out = new byte[size];
        for (int i = 0; i < size; i += all.length) {
            System.arraycopy(all, 0, out, i, Math.min(all.length, size - i));
        }
        return out;
    }

    /** About {@code chars} characters of lines of words drawn from a small vocabulary; deterministic per seed. */
    public static String generatedText(int chars, long seed) {
        Random random = new Random(seed);
        StringBuilder sb = new StringBuilder(chars + 100);
        while (sb.length() < chars) {
            int words = 5 + random.nextInt(10);
            for (int w = 0; w < words; w++) {
                // skewed towards the first words, as in natural text
                int index = (int) (WORDS.length * Math.pow(random.nextDouble(), 2));
                sb.append(w == 0 ? "" : " ").append(WORDS[index]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A JSON event of a few hundred bytes, like an application would send to Kafka; deterministic per index. */
    public static String jsonEvent(int index) {
        Random random = new Random(index);
        StringBuilder sb = new StringBuilder(512);
        sb.append("{\"id\":").append(index)
                .append(",\"ts\":").append(1_700_000_000_000L + index * 37L)
                .append(",\"user\":\"user-").append(random.nextInt(5000)).append('"')
                .append(",\"event\":\"").append(random.nextBoolean() ? "page_view" : "click").append('"')
                .append(",\"url\":\"https://shop.example.com/catalog/").append(WORDS[random.nextInt(WORDS.length)])
                .append('/').append(random.nextInt(100_000)).append('"')
                .append(",\"tags\":[");
        int tags = 3 + random.nextInt(6);
        for (int t = 0; t < tags; t++) {
            sb.append(t == 0 ? "" : ",").append('"').append(WORDS[random.nextInt(WORDS.length)]).append('"');
        }
        sb.append("],\"note\":\"").append(generatedText(120 + random.nextInt(200), index).replace('\n', ' '))
                .append("\"}");
        return sb.toString();
    }
}
