package org.adaptivecompress.kafka;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.time.Duration;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Producer throughput and bytes on the wire, unthrottled and under a broker quota, for JSON
 * events of ~1 KB and ~10 KB: the adaptive serde (with the dictionary it trains online, with none,
 * with a file trained beforehand, stacked on the producer's own compression, and with AdOC's rule
 * as its controller) against
 * {@code compression.type} none / lz4 / zstd. The third argument sets every producer's
 * {@code batch.size} (Kafka's default, 16 KiB, without it). The second runs only the contenders it
 * names, e.g. {@code compression.type=zstd,adaptive,adaptive:adoc}.
 * Each run sends for a fixed time and reports what the broker acknowledged after a warm-up.
 * Prints a Markdown table. Run:
 *
 * <pre>
 * mvn -B -o -q -f kafka-serde/pom.xml test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=org.adaptivecompress.kafka.KafkaSerdeBenchmark [-Dexec.args="QUOTA_BYTES_PER_S [NAME,NAME... [BATCH_SIZE]]"]
 * </pre>
 */
public final class KafkaSerdeBenchmark {

    /** Distinct data sent round-robin: larger than any batch, so no contender sees repeats within one. */
    private static final int DATA_BYTES = 16 << 20;
    private static final long UNTHROTTLED_WARMUP_MS = 1000;
    private static final long UNTHROTTLED_MEASURE_MS = 4000;
    /**
     * Longer than the producer's buffer (4 MiB) takes to drain at the quota, so the measured part
     * sends records serialized after the warm-up (a trained dictionary in use, the rung settled),
     * and the quota's initial burst is spent.
     */
    private static final long THROTTLED_WARMUP_MS = 10_000;
    private static final long THROTTLED_MEASURE_MS = 6000;

    private KafkaSerdeBenchmark() {}

    /** Where an adaptive contender's dictionary comes from. */
    private enum Dictionary {
        /** Trained online and shared through the dictionary topic: the default. */
        ONLINE,
        /** None: {@code adaptive.dictionary.topic} empty. */
        NONE,
        /** A file trained beforehand on another seed, in {@code adaptive.zstd.dictionaries}. */
        FILE
    }

    /** One contender: a serializer setup and the producer's compression.type. */
    private static final class Contender {
        final String name;
        final boolean adaptive;
        final Dictionary dictionary;
        final String compressionType;
        /** The serde's {@code adaptive.controller}, or {@code null} for its default. */
        final String controller;

        Contender(String name, String compressionType) {
            this(name, false, Dictionary.NONE, compressionType, null);
        }

        Contender(String name, boolean adaptive, Dictionary dictionary, String compressionType, String controller) {
            this.name = name;
            this.adaptive = adaptive;
            this.dictionary = dictionary;
            this.compressionType = compressionType;
            this.controller = controller;
        }
    }

    private static final List<Contender> CONTENDERS = List.of(
            new Contender("compression.type=none", "none"),
            new Contender("compression.type=lz4", "lz4"),
            new Contender("compression.type=zstd", "zstd"),
            new Contender("adaptive", true, Dictionary.ONLINE, "none", null),
            new Contender("adaptive (no dictionary)", true, Dictionary.NONE, "none", null),
            new Contender("adaptive:adoc", true, Dictionary.ONLINE, "none", "adoc"),
            new Contender("adaptive + dictionary file", true, Dictionary.FILE, "none", null),
            new Contender("adaptive + compression.type=lz4", true, Dictionary.ONLINE, "lz4", null));

    /** Runs every contender for both record sizes, unthrottled and then under the quota. */
    public static void main(String[] args) throws Exception {
        double quota = args.length > 0 ? Double.parseDouble(args[0]) : 500_000;
        List<Contender> contenders = args.length > 1 ? selected(args[1]) : CONTENDERS;
        Integer batchSize = args.length > 2 ? Integer.valueOf(args[2]) : null;
        Path dictionary = jsonEventsDictionary();
        List<String> rows = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start()) {
            for (boolean throttled : new boolean[] {false, true}) {
                if (throttled) {
                    setDefaultQuota(broker.bootstrapServers(), quota);
                }
                for (int size : new int[] {1024, 10 * 1024}) {
                    byte[] data = DataKind.JSON_EVENTS.generate(DATA_BYTES);
                    for (Contender c : contenders) {
                        rows.add(run(broker.bootstrapServers(), c, dictionary, data, size, batchSize,
                                throttled ? String.format(Locale.ROOT, "%.0f KB/s", quota / 1000) : "none",
                                throttled ? THROTTLED_WARMUP_MS : UNTHROTTLED_WARMUP_MS,
                                throttled ? THROTTLED_MEASURE_MS : UNTHROTTLED_MEASURE_MS));
                        System.err.println(rows.get(rows.size() - 1));
                    }
                }
            }
        } finally {
            Files.deleteIfExists(dictionary);
        }
        System.out.println("| Quota | Record | Contender | MB/s (raw, acknowledged) | Wire bytes / raw "
                + "| Send-thread CPU ns per raw byte | Trained dictionary in use after (s) | Records per rung |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
    }

    /**
     * A 16 KiB zstd dictionary trained on 1 KB JSON events of another seed than the data sent,
     * written to a temporary file the caller deletes.
     */
    static Path jsonEventsDictionary() throws IOException {
        List<byte[]> samples = new ArrayList<>();
        byte[] training = DataKind.jsonEvents(4 << 20, 42);
        for (int i = 0; i + 1024 <= training.length; i += 1024) {
            samples.add(Arrays.copyOfRange(training, i, i + 1024));
        }
        return Files.write(Files.createTempFile("json-events", ".dict"), DictionaryTrainer.train(samples, 16 * 1024));
    }

    /**
     * The contenders named in a comma-separated list, in the list's order, each name as the table
     * prints it with its spaces left out (exec:java splits its arguments at spaces).
     */
    private static List<Contender> selected(String names) {
        List<Contender> chosen = new ArrayList<>();
        for (String name : names.split(",")) {
            String wanted = name.replace(" ", "");
            chosen.add(CONTENDERS.stream().filter(c -> c.name.replace(" ", "").equals(wanted)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no contender named '" + wanted + "'")));
        }
        return chosen;
    }

    private static void setDefaultQuota(String bootstrap, double bytesPerSecond) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            ClientQuotaEntity defaultClient = new ClientQuotaEntity(
                    Collections.singletonMap(ClientQuotaEntity.CLIENT_ID, null));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(defaultClient,
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", bytesPerSecond))))).all().get();
        }
        Thread.sleep(1000); // let the quota reach the broker's quota manager
    }

    private static int runs;

    /**
     * Sends records round-robin from {@code data} for warm-up plus measured time; the throughput
     * is the raw bytes acknowledged during the measured part only, so the quota's initial burst
     * allowance (a full quota window) does not flatter the compressing contenders.
     */
    private static String run(String bootstrap, Contender c, Path dictionary, byte[] data, int size, Integer batchSize,
            String quota, long warmupMillis, long measureMillis) throws Exception {
        String clientId = "bench-" + (++runs);
        String topic = clientId;
        KafkaClients.createTopic(bootstrap, topic);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", clientId);
        p.put("compression.type", c.compressionType);
        p.put("linger.ms", "5");
        if (batchSize != null) {
            p.put("batch.size", batchSize.toString());
        }
        // A bounded backlog: send() blocks once 4 MiB wait, as a real producer on a slow link would.
        p.put("buffer.memory", String.valueOf(4 << 20));
        p.put("key.serializer", ByteArraySerializer.class.getName());
        AdaptiveSerializer<byte[]> adaptive = null;
        KafkaProducer<byte[], byte[]> producer;
        if (c.adaptive) {
            p.put(AdaptiveSerdeConfig.DELEGATE_SERIALIZER, ByteArraySerializer.class.getName());
            p.put("interceptor.classes", AdaptiveProducerInterceptor.class.getName());
            if (c.controller != null) {
                p.put(AdaptiveSerdeConfig.CONTROLLER, c.controller);
            }
            if (c.dictionary == Dictionary.FILE) {
                p.put(AdaptiveSerdeConfig.ZSTD_DICTIONARIES, dictionary.toString());
            } else if (c.dictionary == Dictionary.NONE) {
                p.put(AdaptiveSerdeConfig.DICTIONARY_TOPIC, "");
            }
            adaptive = new AdaptiveSerializer<>();
            adaptive.configure(KafkaClients.asMap(p), false);
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), adaptive);
        } else {
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int distinct = data.length / size;
        AtomicLong acked = new AtomicLong();
        long sent = 0;
        double wire;
        long cpu;
        long ackedInWindow;
        double dictionaryAfter = -1;
        try {
            producer.partitionsFor(topic); // metadata first, so it is not timed
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            long measureStart = t0 + warmupMillis * 1_000_000;
            long end = measureStart + measureMillis * 1_000_000;
            long ackedAtStart = -1;
            double wireAtStart = 0;
            for (int i = 0; System.nanoTime() < end; i++) {
                if (ackedAtStart < 0 && System.nanoTime() >= measureStart) {
                    ackedAtStart = acked.get();
                    wireAtStart = metric(producer.metrics(), "outgoing-byte-total");
                }
                int r = i % distinct;
                producer.send(new ProducerRecord<>(topic, Arrays.copyOfRange(data, r * size, (r + 1) * size)),
                        (md, e) -> {
                            if (e == null) {
                                acked.addAndGet(size);
                            }
                        });
                sent += size;
                if (dictionaryAfter < 0 && c.dictionary == Dictionary.ONLINE && (i & 255) == 0
                        && !adaptive.statistics().dictionaries().isEmpty()) {
                    dictionaryAfter = (System.nanoTime() - t0) / 1e9;
                }
            }
            ackedInWindow = acked.get() - Math.max(0, ackedAtStart);
            cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1_000_000;
            wire = metric(producer.metrics(), "outgoing-byte-total") - wireAtStart;
        } finally {
            producer.close(Duration.ZERO); // records still queued are abandoned, not timed
        }
        // Wire bytes sent per raw byte acknowledged, both in the measured part: what was in flight
        // at its start and at its end roughly cancel, and records queued but not sent do not count.
        double ratio = wire / Math.max(1, ackedInWindow);
        return String.format(Locale.ROOT, "| %s | %d KB | %s | %.2f | %.3f | %.0f | %s | %s |", quota, size / 1024,
                c.name, ackedInWindow / 1e6 / (measureMillis / 1e3), ratio, cpu * 1e6 / Math.max(1, sent),
                dictionaryAfter < 0 ? "" : String.format(Locale.ROOT, "%.1f", dictionaryAfter),
                adaptive == null ? "" : adaptive.statistics().recordsByRung()
                        + (adaptive.statistics().recordsWithDictionary() == 0 ? ""
                                : ", with dictionary " + adaptive.statistics().recordsWithDictionary()));
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics")) {
                return ((Number) e.getValue().metricValue()).doubleValue();
            }
        }
        throw new IllegalStateException("producer metric " + name + " not found");
    }
}
