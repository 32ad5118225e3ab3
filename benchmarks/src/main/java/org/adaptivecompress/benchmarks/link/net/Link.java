package org.adaptivecompress.benchmarks.link.net;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The link the agents' transfers cross, and where the agents run: a namespace's loopback shaped
 * by the kernel ({@link KernelLink}) or a pacing relay process between two sockets
 * ({@link RelayLink}).
 */
public interface Link extends AutoCloseable {

    /** One line for the report: which link, and how it is shaped. */
    String describe();

    /** The prefix that starts a process where the agents run, e.g. {@code ip netns exec NS}. */
    List<String> launchPrefix();

    /**
     * Between transfers: shapes the link to {@code bytesPerSecond} of payload, or not at all for
     * {@link Rates#UNLIMITED}, as if it had just been set up.
     */
    void setRate(long bytesPerSecond) throws IOException;

    /**
     * During a transfer: changes the rate from now on, bytes already queued included (the rate
     * step). By default the same as {@link #setRate}.
     */
    default void stepRate(long bytesPerSecond) throws IOException {
        setRate(bytesPerSecond);
    }

    /** The port a sender connects to for a receiver listening on {@code receiverPort}. */
    int portFor(int receiverPort) throws IOException;

    /** Whether the kernel has netem (delay and loss), if it was checked. */
    Optional<Boolean> netem();

    /** The shaping qdisc's counters per rate so far, where the kernel shapes; empty otherwise. */
    default Map<Long, QdiscCounters> counters() {
        return Map.of();
    }

    /** Stops whatever it started and deletes whatever it made. */
    @Override
    void close();
}
