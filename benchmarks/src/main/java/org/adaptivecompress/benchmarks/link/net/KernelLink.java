package org.adaptivecompress.benchmarks.link.net;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A link shaped by the kernel: a namespace whose loopback has the MTU of Ethernet (1500, so tbf
 * can cut TCP's 64 KiB segments into frames instead of dropping them) and, while a rate is set,
 * a tbf as its root qdisc. Both the sender's socket buffer and the qdisc's queue stay in the
 * path, as on a real link: a writer pushes megabytes at once, then waits while they drain.
 *
 * <p>Every connection starts as a new one to an unknown host: the namespace does not keep the
 * TCP metrics of a closed connection, which Linux would otherwise hand to the next one to the
 * same address (its slow-start threshold and round-trip time), so that one contender's transfer
 * would shape the start of the next.
 */
public final class KernelLink implements Link {

    /** Ethernet's MTU: the frames tbf meters. */
    static final int MTU = 1500;

    /** The namespace's sysctl that stops closed connections leaving TCP metrics to the next. */
    static final String NO_METRICS_SAVE = "net.ipv4.tcp_no_metrics_save";

    private final Namespace namespace;
    private final TcSession tc;
    private final boolean netem;
    private final Map<Long, QdiscCounters> counters = new LinkedHashMap<>();
    private Tbf shaping;
    private QdiscCounters seen = QdiscCounters.ZERO;

    private KernelLink(Namespace namespace, TcSession tc, boolean netem) {
        this.namespace = namespace;
        this.tc = tc;
        this.netem = netem;
    }

    /**
     * Creates the namespace, sets its loopback's MTU, turns off its cache of TCP metrics and
     * starts the {@code tc} session.
     *
     * @throws LinkSetupException saying which step failed and why (not root, no {@code ip} or
     *     {@code tc}, no namespaces in this kernel or container)
     */
    public static KernelLink open() throws LinkSetupException {
        Namespace ns = Namespace.create();
        try {
            ns.run("ip", "link", "set", "lo", "mtu", Integer.toString(MTU));
            ns.run("sysctl", "-q", "-w", NO_METRICS_SAVE + "=1");
            boolean netem = ns.hasNetem();
            return new KernelLink(ns, TcSession.open(ns), netem);
        } catch (LinkSetupException e) {
            ns.close();
            throw e;
        }
    }

    /** The value of a sysctl inside the namespace, such as {@code net.ipv4.tcp_no_metrics_save}. */
    public String sysctl(String key) throws LinkSetupException {
        return namespace.run("sysctl", "-n", key).trim();
    }

    /** The namespace's name. */
    public String namespaceName() {
        return namespace.name();
    }

    @Override
    public String describe() {
        return "kernel: namespace " + namespace.name() + ", loopback at MTU " + MTU + ", tbf as lo's root qdisc"
                + " (frame rate = payload rate x 1514/1448, burst max(4 KiB, 2 ms) and at least 72 KiB in a step down from a bigger one, queue burst + max(1 MiB, 20 ms));"
                + " unthrottled = no qdisc; no TCP metrics kept between connections";
    }

    @Override
    public List<String> launchPrefix() {
        return namespace.exec();
    }

    /**
     * Deletes the tbf, if any, and adds a fresh one for a finite rate: whatever a cut-off transfer
     * left queued goes with the old one.
     */
    @Override
    public synchronized void setRate(long bytesPerSecond) throws LinkSetupException {
        if (shaping != null) {
            count(tc.show());
            tc.apply("qdisc del dev lo root");
            shaping = null;
        }
        if (bytesPerSecond != Rates.UNLIMITED) {
            Tbf tbf = Tbf.of(bytesPerSecond);
            seen = tc.apply("qdisc add dev lo root " + String.join(" ", tbf.args()));
            shaping = tbf;
        }
    }

    /**
     * {@code tc qdisc change}s the tbf to the new rate, its bucket kept big enough for what the
     * old one queued ({@link Tbf#following}); its counters so far, all but a fraction of a
     * millisecond of them the old rate's, go to the old rate.
     */
    @Override
    public synchronized void stepRate(long bytesPerSecond) throws LinkSetupException {
        if (shaping == null || bytesPerSecond == Rates.UNLIMITED) {
            setRate(bytesPerSecond);
            return;
        }
        Tbf tbf = Tbf.of(bytesPerSecond).following(shaping);
        count(tc.apply("qdisc change dev lo root " + String.join(" ", tbf.args())));
        shaping = tbf;
    }

    /** Adds what the qdisc passed since the last look to the current rate's counters. */
    private void count(QdiscCounters now) {
        counters.merge(shaping.payloadBytesPerSecond(), now.minus(seen), QdiscCounters::plus);
        seen = now;
    }

    @Override
    public int portFor(int receiverPort) {
        return receiverPort;
    }

    @Override
    public Optional<Boolean> netem() {
        return Optional.of(netem);
    }

    @Override
    public synchronized Map<Long, QdiscCounters> counters() {
        if (shaping != null) {
            try {
                count(tc.show());
            } catch (LinkSetupException e) {
                // the counters so far stand; the current rate's last stretch is left out
            }
        }
        return Map.copyOf(counters);
    }

    @Override
    public synchronized void close() {
        tc.close();
        namespace.close();
    }
}
