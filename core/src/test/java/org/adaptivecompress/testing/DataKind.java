package org.adaptivecompress.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The kinds of data the project is tested and measured on: real corpus files and data generated
 * from a fixed seed. {@link #generate(int)} returns the same bytes for the same size every time.
 */
public enum DataKind {
    /** English prose: the Canterbury texts concatenated. */
    TEXT("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt"),
    /** A web page. */
    HTML("html"),
    /** A list of URLs. */
    URLS("urls.10K"),
    /** A serialized protocol buffer. */
    PROTOBUF("geo.protodata"),
    /** A JPEG: already compressed. */
    JPEG("fireworks.jpeg"),
    /** A PDF: partly compressed streams. */
    PDF("paper-100k.pdf"),
    /** JSON events like Kafka records, generated. */
    JSON_EVENTS,
    /** Application log lines, generated. */
    LOG_LINES,
    /** Uniformly random bytes: incompressible. */
    RANDOM,
    /** Changes kind every 256 KiB: JSON, random, text, JPEG, logs, ... */
    MIXED;

    private static final long SEED = 0x5EEDL;
    private static final int MIXED_SEGMENT = 256 * 1024;

    private final String[] files;

    DataKind(String... files) {
        this.files = files;
    }

    /** {@code size} bytes of this kind, the same every call. */
    public byte[] generate(int size) {
        switch (this) {
            case JSON_EVENTS:
                return jsonEvents(size, SEED);
            case LOG_LINES:
                return logLines(size, SEED);
            case RANDOM:
                return random(size, SEED);
            case MIXED:
                return mixed(size);
            default:
                return repeatCorpus(size);
        }
    }

    private byte[] repeatCorpus(int size) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String f : files) {
            all.writeBytes(Corpus.read(f));
        }
        return repeat(all.toByteArray(), size);
    }

    private static byte[] repeat(byte[] source, int size) {
        byte[] out = new byte[size];
        for (int i = 0; i < size; i += source.length) {
            System.arraycopy(source, 0, out, i, Math.min(source.length, size - i));
        }
        return out;
    }

    private static byte[] mixed(int size) {
        DataKind[] cycle = {JSON_EVENTS, RANDOM, TEXT, JPEG, LOG_LINES, URLS, PDF};
        byte[] out = new byte[size];
        for (int i = 0, k = 0; i < size; i += MIXED_SEGMENT, k++) {
            int n = Math.min(MIXED_SEGMENT, size - i);
            System.arraycopy(cycle[k % cycle.length].generate(n), 0, out, i, n);
        }
        return out;
    }

    /** Uniformly random bytes from a fixed seed. */
    public static byte[] random(int size, long seed) {
        byte[] out = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < size; i += 8) {
            long v = r.nextLong();
            for (int j = 0; j < 8 && i + j < size; j++) {
                out[i + j] = (byte) (v >>> (8 * j));
            }
        }
        return out;
    }

    private static final String[] EVENTS = {"page_view", "click", "add_to_cart", "purchase", "login", "logout", "search"};
    private static final String[] COUNTRIES = {"FR", "DE", "US", "JP", "BR", "IN", "GB", "NL"};
    private static final String[] AGENTS = {"Mozilla/5.0 (X11; Linux x86_64)", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2)",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)", "okhttp/4.12.0"};

    /** JSON events, one per line, like the values of a Kafka topic of user activity. */
    public static byte[] jsonEvents(int size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder sb = new StringBuilder(size + 512);
        long ts = 1_700_000_000_000L;
        while (sb.length() < size) {
            ts += r.nextInt(50);
            sb.append("{\"ts\":").append(ts)
                    .append(",\"event\":\"").append(EVENTS[r.nextInt(EVENTS.length)])
                    .append("\",\"user_id\":").append(100_000 + r.nextInt(900_000))
                    .append(",\"session\":\"").append(Long.toHexString(r.nextLong()))
                    .append("\",\"country\":\"").append(COUNTRIES[r.nextInt(COUNTRIES.length)])
                    .append("\",\"agent\":\"").append(AGENTS[r.nextInt(AGENTS.length)])
                    .append("\",\"amount\":").append(r.nextInt(100_000) / 100.0)
                    .append(",\"items\":[");
            int items = r.nextInt(4);
            for (int i = 0; i < items; i++) {
                sb.append(i > 0 ? "," : "").append("{\"sku\":\"SKU-").append(r.nextInt(5000))
                        .append("\",\"qty\":").append(1 + r.nextInt(3)).append('}');
            }
            sb.append("]}\n");
        }
        return sb.substring(0, size).getBytes(StandardCharsets.UTF_8);
    }

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] LOGGERS = {"o.a.k.c.producer.KafkaProducer", "o.a.h.hdfs.DFSClient",
        "io.netty.channel.DefaultChannelPipeline", "com.example.OrderService", "com.example.http.AccessLog"};
    private static final String[] MESSAGES = {"Request completed in %d ms with status %d",
        "Connection to node %d established, latency %d ms", "Flushed %d records to partition %d",
        "Retrying send after %d ms (attempt %d)", "Cache miss for key user:%d, loaded in %d ms"};

    /** Application log lines with timestamps, levels, threads and templated messages. */
    public static byte[] logLines(int size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder sb = new StringBuilder(size + 256);
        long millis = 0;
        while (sb.length() < size) {
            millis += r.nextInt(20);
            sb.append(String.format("2026-11-23 %02d:%02d:%02d.%03d %-5s [worker-%d] %s - ",
                    millis / 3_600_000 % 24, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000,
                    LEVELS[r.nextInt(LEVELS.length)], r.nextInt(16), LOGGERS[r.nextInt(LOGGERS.length)]));
            sb.append(String.format(MESSAGES[r.nextInt(MESSAGES.length)], r.nextInt(5000), r.nextInt(600)));
            sb.append('\n');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.UTF_8);
    }
}
