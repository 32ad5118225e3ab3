package org.adaptivecompress.benchmarks.scenario;

import java.util.SplittableRandom;

/**
 * Generated records: JSON events, log lines and CSV rows, each piece starting from its own seed
 * (its own clock, users and sessions), so no two pieces repeat each other.
 */
final class Records {

    private static final byte[][] EVENTS = AsciiSink.ascii("page_view", "click", "add_to_cart", "purchase", "login",
            "logout", "search");
    private static final byte[][] COUNTRIES = AsciiSink.ascii("FR", "DE", "US", "JP", "BR", "IN", "GB", "NL");
    private static final byte[][] AGENTS = AsciiSink.ascii("Mozilla/5.0 (X11; Linux x86_64)",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2)", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)",
            "okhttp/4.12.0");
    private static final byte[] TS = AsciiSink.ascii("{\"ts\":");
    private static final byte[] EVENT = AsciiSink.ascii(",\"event\":\"");
    private static final byte[] USER = AsciiSink.ascii("\",\"user_id\":");
    private static final byte[] SESSION = AsciiSink.ascii(",\"session\":\"");
    private static final byte[] COUNTRY = AsciiSink.ascii("\",\"country\":\"");
    private static final byte[] AGENT = AsciiSink.ascii("\",\"agent\":\"");
    private static final byte[] AMOUNT = AsciiSink.ascii("\",\"amount\":");
    private static final byte[] ITEMS = AsciiSink.ascii(",\"items\":[");
    private static final byte[] SKU = AsciiSink.ascii("{\"sku\":\"SKU-");
    private static final byte[] QTY = AsciiSink.ascii("\",\"qty\":");
    private static final byte[] END_EVENT = AsciiSink.ascii("]}\n");

    private static final byte[][] LEVELS = AsciiSink.ascii("INFO ", "INFO ", "INFO ", "DEBUG", "WARN ", "ERROR");
    private static final byte[][] LOGGERS = AsciiSink.ascii("o.a.k.c.producer.KafkaProducer", "o.a.h.hdfs.DFSClient",
            "io.netty.channel.DefaultChannelPipeline", "com.example.OrderService", "com.example.http.AccessLog");
    /** Message templates: text, a number, text, a number, text. */
    private static final byte[][][] MESSAGES = {
        AsciiSink.ascii("Request completed in ", " ms with status ", ""),
        AsciiSink.ascii("Connection to node ", " established, latency ", " ms"),
        AsciiSink.ascii("Flushed ", " records to partition ", ""),
        AsciiSink.ascii("Retrying send after ", " ms (attempt ", ")"),
        AsciiSink.ascii("Cache miss for key user:", ", loaded in ", " ms"),
    };
    private static final byte[] DATE = AsciiSink.ascii("2026-11-23 ");
    private static final byte[] WORKER = AsciiSink.ascii(" [worker-");
    private static final byte[] DASH = AsciiSink.ascii("] ");
    private static final byte[] SEPARATOR = AsciiSink.ascii(" - ");

    private static final byte[] CSV_HEADER = AsciiSink.ascii(
            "order_id,created_at,customer_id,country,sku,quantity,unit_price,status\n");
    private static final byte[][] STATUSES = AsciiSink.ascii("placed", "paid", "shipped", "shipped", "delivered",
            "cancelled");
    private static final byte[] CSV_DATE = AsciiSink.ascii("2026-11-");
    private static final byte[] CSV_SKU = AsciiSink.ascii("SKU-");

    private Records() {}

    /** JSON events, one per line, until the sink is full. */
    static void jsonEvents(AsciiSink out, SplittableRandom r) {
        long ts = 1_700_000_000_000L + r.nextInt(1 << 30);
        while (!out.full()) {
            ts += r.nextInt(50);
            out.put(TS).number(ts).put(EVENT).put(pick(EVENTS, r)).put(USER).number(100_000 + r.nextInt(900_000))
                    .put(SESSION).hex(r.nextLong()).put(COUNTRY).put(pick(COUNTRIES, r)).put(AGENT)
                    .put(pick(AGENTS, r)).put(AMOUNT).cents(r.nextInt(100_000)).put(ITEMS);
            int items = r.nextInt(4);
            for (int i = 0; i < items; i++) {
                if (i > 0) {
                    out.put(',');
                }
                out.put(SKU).number(r.nextInt(5000)).put(QTY).number(1 + r.nextInt(3)).put('}');
            }
            out.put(END_EVENT);
        }
    }

    /** Log lines with timestamps, levels, threads and templated messages, until the sink is full. */
    static void logLines(AsciiSink out, SplittableRandom r) {
        long millis = r.nextInt(3_600_000);
        while (!out.full()) {
            millis += r.nextInt(20);
            byte[][] message = MESSAGES[r.nextInt(MESSAGES.length)];
            out.put(DATE).padded(millis / 3_600_000 % 24, 2).put(':').padded(millis / 60_000 % 60, 2).put(':')
                    .padded(millis / 1000 % 60, 2).put('.').padded(millis % 1000, 3).put(' ')
                    .put(pick(LEVELS, r)).put(WORKER).number(r.nextInt(16)).put(DASH).put(pick(LOGGERS, r))
                    .put(SEPARATOR).put(message[0]).number(r.nextInt(5000)).put(message[1]).number(r.nextInt(600))
                    .put(message[2]).put('\n');
        }
    }

    /** A header, then order rows, until the sink is full. */
    static void csvRows(AsciiSink out, SplittableRandom r) {
        long order = 1_000_000 + r.nextInt(1 << 24);
        long seconds = r.nextInt(86_400);
        out.put(CSV_HEADER);
        while (!out.full()) {
            order += 1 + r.nextInt(3);
            seconds += r.nextInt(30);
            out.number(order).put(',').put(CSV_DATE).padded(1 + seconds / 86_400 % 28, 2).put('T')
                    .padded(seconds / 3600 % 24, 2).put(':').padded(seconds / 60 % 60, 2).put(':')
                    .padded(seconds % 60, 2).put('Z').put(',').number(10_000 + r.nextInt(90_000)).put(',')
                    .put(pick(COUNTRIES, r)).put(',').put(CSV_SKU).number(r.nextInt(5000)).put(',')
                    .number(1 + r.nextInt(5)).put(',').cents(99 + r.nextInt(20_000)).put(',')
                    .put(pick(STATUSES, r)).put('\n');
        }
    }

    private static byte[] pick(byte[][] choices, SplittableRandom r) {
        return choices[r.nextInt(choices.length)];
    }
}
