package org.adaptivecompress.benchmarks.link.net;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the shaping qdisc passed at one rate: its bytes and packets (their ratio shows whether
 * tbf cut TCP's large segments into frames of the MTU) and its drops (none, when the queue is
 * deep enough).
 *
 * @param bytes bytes sent, headers included
 * @param packets packets sent
 * @param drops packets dropped
 */
public record QdiscCounters(long bytes, long packets, long drops) {

    /** Nothing yet. */
    public static final QdiscCounters ZERO = new QdiscCounters(0, 0, 0);

    private static final Pattern SENT = Pattern.compile("Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+)");

    /** The first qdisc's counters in the output of {@code tc -s qdisc show}, or zero if there are none. */
    static QdiscCounters parse(String tcOutput) {
        Matcher m = SENT.matcher(tcOutput);
        if (!m.find()) {
            return ZERO;
        }
        return new QdiscCounters(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }

    /** These plus {@code o}. */
    public QdiscCounters plus(QdiscCounters o) {
        return new QdiscCounters(bytes + o.bytes, packets + o.packets, drops + o.drops);
    }

    /** These less {@code o}. */
    public QdiscCounters minus(QdiscCounters o) {
        return new QdiscCounters(bytes - o.bytes, packets - o.packets, drops - o.drops);
    }

    /** The mean packet, in bytes; 0 if none passed. */
    public long meanPacket() {
        return packets == 0 ? 0 : bytes / packets;
    }
}
