package org.adaptivecompress.benchmarks.link.net;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.adaptivecompress.benchmarks.link.agent.AgentProcess;

/**
 * A link paced by a relay process ({@link Relay}) between the sender and the receiver, all on
 * loopback: inside a namespace of the benchmark's own where one can be made, else on the host's
 * loopback. The fallback where the kernel cannot shape, and forced with {@code --link relay}.
 */
public final class RelayLink implements Link {

    /** The relay copies 64 KiB at a time; its heap needs little more. */
    private static final String HEAP = "64m";
    /** The relay answers a command at once; this long means it is gone. */
    private static final Duration ANSWER = Duration.ofSeconds(30);

    private final Namespace namespace;
    private final AgentProcess relay;
    private final int port;
    private final Optional<Boolean> netem;

    private RelayLink(Namespace namespace, AgentProcess relay, int port) {
        this.namespace = namespace;
        this.relay = relay;
        this.port = port;
        this.netem = namespace == null ? Optional.empty() : Optional.of(namespace.hasNetem());
    }

    /**
     * Starts the relay in {@code namespace}, or on the host's loopback if it is null; the link
     * owns the namespace from then on.
     */
    public static RelayLink open(Namespace namespace) throws IOException {
        AgentProcess relay = null;
        try {
            relay = AgentProcess.start("relay", namespace == null ? List.of() : namespace.exec(), HEAP, null);
            String hello = relay.nextLine(AgentProcess.startTimeout());
            if (!hello.startsWith("listening ")) {
                throw new LinkSetupException("the relay answered '" + hello + "' instead of its port");
            }
            return new RelayLink(namespace, relay, Integer.parseInt(hello.substring("listening ".length())));
        } catch (IOException | RuntimeException e) {
            if (relay != null) {
                relay.close();
            }
            if (namespace != null) {
                namespace.close();
            }
            throw e;
        }
    }

    @Override
    public String describe() {
        return "relay: a pacing relay process between two loopback sockets (token bucket of max(4 KiB, 1 ms) on"
                + " payload bytes) " + (namespace == null ? "on the host's loopback" : "in namespace " + namespace.name());
    }

    @Override
    public List<String> launchPrefix() {
        return namespace == null ? List.of() : namespace.exec();
    }

    @Override
    public void setRate(long bytesPerSecond) throws IOException {
        ask("rate " + (bytesPerSecond == Rates.UNLIMITED ? "unlimited" : Long.toString(bytesPerSecond)));
    }

    @Override
    public int portFor(int receiverPort) throws IOException {
        ask("target " + receiverPort);
        return port;
    }

    @Override
    public Optional<Boolean> netem() {
        return netem;
    }

    private synchronized void ask(String command) throws IOException {
        relay.send(command);
        String answer = relay.nextLine(ANSWER);
        if (!answer.equals("ok")) {
            throw new LinkSetupException("the relay answered '" + answer + "' to '" + command + "'");
        }
    }

    @Override
    public void close() {
        relay.close();
        if (namespace != null) {
            namespace.close();
        }
    }
}
