package org.adaptivecompress.benchmarks.scenario;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What one piece of a scenario's data is: slices of a real corpus file, generated records, or
 * random bytes. Every kind fills a piece deterministically from the piece's seed, and the first
 * {@code n} bytes of a piece do not depend on how long it is, so any prefix of a scenario is
 * the same whatever length is asked for.
 */
public enum PieceKind {
    /** English prose: the Canterbury texts. */
    TEXT("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt"),
    /** A web page. */
    HTML("html"),
    /** A list of URLs. */
    URLS("urls.10K"),
    /** A PDF: partly compressed streams. */
    PDF("paper-100k.pdf"),
    /** A JPEG: already compressed. */
    JPEG("fireworks.jpeg"),
    /** A serialized protocol buffer. */
    PROTOBUF("geo.protodata"),
    /** JSON events like the values of a Kafka topic, generated. */
    JSON,
    /** Application log lines, generated. */
    LOGS,
    /** CSV rows of orders, generated. */
    CSV,
    /** Uniformly random bytes: incompressible. */
    RANDOM;

    /** Every kind a scenario may mix in besides random bytes. */
    public static final List<PieceKind> NOT_RANDOM = List.of(TEXT, HTML, URLS, PDF, JPEG, PROTOBUF, JSON, LOGS, CSV);

    /** The kinds that compress well alone: what a homogeneous scenario is made of. */
    public static final List<PieceKind> COMPRESSIBLE = List.of(TEXT, HTML, URLS, PROTOBUF, JSON, LOGS, CSV);

    private final List<String> files;

    PieceKind(String... files) {
        this.files = List.of(files);
    }

    /** The lower-case name used in descriptions. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The corpus files this kind slices, empty for generated kinds. */
    public List<String> files() {
        return files;
    }

    /** Fills {@code out[off, off + len)} with this kind's bytes for the piece seeded {@code seed}. */
    void fill(byte[] out, int off, int len, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        switch (this) {
            case JSON -> Records.jsonEvents(new AsciiSink(out, off, len), random);
            case LOGS -> Records.logLines(new AsciiSink(out, off, len), random);
            case CSV -> Records.csvRows(new AsciiSink(out, off, len), random);
            case RANDOM -> randomBytes(out, off, len, random);
            default -> CorpusSlices.of(this).fill(out, off, len, random);
        }
    }

    private static void randomBytes(byte[] out, int off, int len, SplittableRandom random) {
        int end = off + len;
        int i = off;
        for (; i + 8 <= end; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8; j++) {
                out[i + j] = (byte) (v >>> (8 * j));
            }
        }
        long v = random.nextLong();
        for (int j = 0; i < end; i++, j++) {
            out[i] = (byte) (v >>> (8 * j));
        }
    }
}
