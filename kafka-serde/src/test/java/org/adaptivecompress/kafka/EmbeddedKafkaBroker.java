package org.adaptivecompress.kafka;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.metadata.storage.Formatter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A real single-node Apache Kafka 4.x KRaft broker (combined broker+controller) running inside
 * the current JVM, bound to 127.0.0.1 only, with its files in a temporary directory deleted on
 * {@link #close()}. The integration tests use it, and the Kafka example runs on it with no setup
 * (this module's test jar).
 *
 * <pre>
 * try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start()) {
 *     String bootstrap = kafka.bootstrapServers();
 *     ...
 * }
 * </pre>
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final int NODE_ID = 1;

    private final Map<String, String> overrides;
    private Path baseDir;
    private KafkaRaftServer server;
    private KafkaConfig config;
    private int brokerPort;
    private int controllerPort;
    private long startupMillis;

    /** A broker with the default single-node settings. */
    public EmbeddedKafkaBroker() {
        this(Map.of());
    }

    /** @param overrides broker properties that override/extend the defaults below */
    public EmbeddedKafkaBroker(Map<String, String> overrides) {
        this.overrides = Map.copyOf(overrides);
    }

    /** Formats a fresh log directory and starts the broker; returns once it is registered and unfenced. */
    public synchronized EmbeddedKafkaBroker start() {
        if (server != null) {
            throw new IllegalStateException("already started");
        }
        long t0 = System.nanoTime();
        try {
            baseDir = Files.createTempDirectory("embedded-kafka-");
            Path logDir = Files.createDirectories(baseDir.resolve("data"));
            int[] ports = freePorts(2);
            brokerPort = ports[0];
            controllerPort = ports[1];

            Map<String, String> p = new HashMap<>();
            // --- KRaft combined mode, static single-voter quorum ---
            p.put("process.roles", "broker,controller");
            p.put("node.id", String.valueOf(NODE_ID));
            p.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
            p.put("controller.listener.names", "CONTROLLER");
            p.put("listeners", "PLAINTEXT://" + HOST + ":" + brokerPort + ",CONTROLLER://" + HOST + ":" + controllerPort);
            p.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + brokerPort);
            p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.put("inter.broker.listener.name", "PLAINTEXT");
            p.put("log.dirs", logDir.toString()); // metadata log goes to the first log dir
            p.put("server.max.startup.time.ms", "60000"); // default is Long.MAX_VALUE: fail instead of hanging
            // --- single node: every internal topic with RF=1 and few partitions ---
            p.put("offsets.topic.replication.factor", "1");
            p.put("offsets.topic.num.partitions", "1");
            p.put("transaction.state.log.replication.factor", "1");
            p.put("transaction.state.log.min.isr", "1");
            p.put("transaction.state.log.num.partitions", "1");
            p.put("share.coordinator.state.topic.replication.factor", "1");
            p.put("share.coordinator.state.topic.min.isr", "1");
            p.put("num.partitions", "1");
            p.put("default.replication.factor", "1");
            p.put("min.insync.replicas", "1");
            p.put("group.initial.rebalance.delay.ms", "0");
            // --- keep it light for a small (2-core) CI box ---
            p.put("num.network.threads", "2");
            p.put("num.io.threads", "2");
            p.put("background.threads", "2");
            p.put("num.recovery.threads.per.data.dir", "1");
            p.put("log.cleaner.threads", "1");
            p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024)); // default 128 MiB
            // --- quotas: short windows so throttling reacts quickly in tests ---
            p.put("quota.window.num", "2");
            p.put("quota.window.size.seconds", "1");
            p.putAll(overrides);

            config = new KafkaConfig(p, false);

            // Equivalent of `kafka-storage.sh format -t <id> -c server.properties` (static quorum => kraft.version=0)
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setControllerListenerName("CONTROLLER")
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .setDirectories(List.of(logDir.toString()))
                    .run();

            installExitGuard();
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup(); // returns once the controller is up and the broker is registered and unfenced
        } catch (Exception e) {
            closeQuietly();
            throw new IllegalStateException("Failed to start embedded Kafka broker", e);
        }
        startupMillis = (System.nanoTime() - t0) / 1_000_000;
        return this;
    }

    /**
     * Shuts the broker down and starts it again on the same log directory and ports, as an
     * operator's rolling restart does: what was acknowledged stays; clients see the connection
     * drop and reconnect.
     */
    public synchronized void restart() {
        if (server == null) {
            throw new IllegalStateException("not started");
        }
        server.shutdown();
        server.awaitShutdown();
        server = null;
        try {
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
        } catch (RuntimeException e) {
            closeQuietly();
            throw new IllegalStateException("Failed to restart embedded Kafka broker", e);
        }
    }

    /** The PLAINTEXT listener, {@code 127.0.0.1:port}. */
    public String bootstrapServers() {
        if (server == null) {
            throw new IllegalStateException("not started");
        }
        return HOST + ":" + brokerPort;
    }

    /** Wall-clock time spent in {@link #start()} (formatting + startup). */
    public long startupMillis() {
        return startupMillis;
    }

    /** Shuts the broker down and deletes its files. */
    @Override
    public synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            if (server != null) {
                server.shutdown();
                server.awaitShutdown();
            }
        } finally {
            server = null;
            releaseExitGuard();
            if (baseDir != null) {
                deleteRecursively(baseDir);
                baseDir = null;
            }
        }
    }

    // Kafka's fatal-fault handler calls Exit.halt(), i.e. Runtime.halt(), which would kill the
    // whole JVM (surefire's, or the example's) without a report. While any embedded broker runs,
    // turn exit/halt into exceptions.
    private static int exitGuardUsers;
    private boolean exitGuardHeld;

    private void installExitGuard() {
        synchronized (EmbeddedKafkaBroker.class) {
            if (exitGuardUsers++ == 0) {
                Exit.setHaltProcedure((code, msg) -> {
                    throw new IllegalStateException("Kafka requested halt(" + code + "): " + msg);
                });
                Exit.setExitProcedure((code, msg) -> {
                    throw new IllegalStateException("Kafka requested exit(" + code + "): " + msg);
                });
            }
        }
        exitGuardHeld = true;
    }

    private void releaseExitGuard() {
        if (!exitGuardHeld) {
            return;
        }
        exitGuardHeld = false;
        synchronized (EmbeddedKafkaBroker.class) {
            if (--exitGuardUsers == 0) {
                Exit.resetHaltProcedure();
                Exit.resetExitProcedure();
            }
        }
    }

    /** Reserve n distinct free loopback ports (all held open at once so they cannot coincide). */
    private static int[] freePorts(int n) throws IOException {
        ServerSocket[] sockets = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                sockets[i] = new ServerSocket();
                sockets[i].setReuseAddress(true);
                sockets[i].bind(new InetSocketAddress(InetAddress.getByName(HOST), 0));
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }

    private static void deleteRecursively(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
