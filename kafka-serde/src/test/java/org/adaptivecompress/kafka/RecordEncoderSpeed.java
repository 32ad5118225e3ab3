package org.adaptivecompress.kafka;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.testing.DataKind;

/**
 * How fast the serde's encoder compresses one record at LZ4, zstd:1 and zstd:3 (rungs 1-3 of
 * its default ladder), with and without {@link KafkaSerdeBenchmark}'s dictionary, and to what
 * ratio: 3,000 JSON events of the given size per rung, three rounds in one JVM, the last one
 * printed, the heap collected before each timed loop. No broker; what the controller measures
 * per record, apart from the producer. Run it in a JVM of its own: inside Maven's
 * ({@code exec:java}) LZ4 ran at a fifth to a half of its speed.
 *
 * <pre>
 * mvn -B -q install -DskipTests
 * mvn -B -q -pl kafka-serde dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/kcp.txt
 * java -cp kafka-serde/target/test-classes:kafka-serde/target/classes:$(cat /tmp/kcp.txt) \
 *     org.adaptivecompress.kafka.RecordEncoderSpeed RECORD_BYTES
 * </pre>
 */
public final class RecordEncoderSpeed {

    private static final int RECORDS = 3000;
    private static final int ROUNDS = 3;

    private RecordEncoderSpeed() {}

    /** Entry point: {@code [record bytes]}, 1024 by default. */
    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        Path file = KafkaSerdeBenchmark.jsonEventsDictionary();
        try {
            ZstdDictionary dictionary = ZstdDictionary.load(file.toString());
            byte[] data = DataKind.JSON_EVENTS.generate(RECORDS * size);
            // Cut before timing: a copy per record inside the loop would be timed with the codec.
            byte[][] records = new byte[RECORDS][];
            for (int r = 0; r < RECORDS; r++) {
                records[r] = Arrays.copyOfRange(data, r * size, (r + 1) * size);
            }
            Ladder ladder = Ladder.parse(AdaptiveSerdeConfig.DEFAULT_LADDER);
            for (int round = 1; round <= ROUNDS; round++) {
                for (ZstdDictionary d : new ZstdDictionary[] {null, dictionary}) {
                    try (RecordEncoder encoder = new RecordEncoder(ladder, 1)) {
                        for (int rung = 1; rung <= 3; rung++) {
                            // The garbage of the loops before, collected inside this one, made the
                            // first timed loop of each round (LZ4 on 1 KB records) half as fast.
                            System.gc();
                            long out = 0;
                            long t0 = System.nanoTime();
                            for (int r = 0; r < RECORDS; r++) {
                                out += encoder.encode(records[r], rung, 0, d).length;
                            }
                            double seconds = (System.nanoTime() - t0) / 1e9;
                            if (round == ROUNDS) {
                                System.out.printf(Locale.ROOT, "%d-byte records, %s, %s: %.0f MB/s, ratio %.3f%n", size,
                                        d == null ? "no dictionary" : "dictionary", ladder.rung(rung),
                                        (double) RECORDS * size / seconds / 1e6, (double) out / ((long) RECORDS * size));
                            }
                        }
                    }
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
