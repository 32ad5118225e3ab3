package org.adaptivecompress.benchmarks.link.net;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network namespace of the benchmark's own, {@code acbench-PID-N}, with its loopback up and
 * nothing else: the agents run inside it and their traffic never leaves its {@code lo}. Closing
 * it deletes it; so does a shutdown hook if the JVM exits first, and the next run deletes any
 * whose process is dead (a driver killed outright).
 */
public final class Namespace implements AutoCloseable {

    private static final String PREFIX = "acbench-";
    private static final Pattern OURS = Pattern.compile("^" + PREFIX + "(\\d+)(-\\d+)?\\b");
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final String name;
    private final Thread hook;
    private boolean closed;

    private Namespace(String name) {
        this.name = name;
        this.hook = new Thread(() -> Command.run(List.of("ip", "netns", "del", name)), "delete-" + name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Deletes stale namespaces, then creates one with its loopback up.
     *
     * @throws LinkSetupException saying which command failed and why (not root, no {@code ip}, ...)
     */
    public static Namespace create() throws LinkSetupException {
        removeStale();
        String name = PREFIX + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet();
        Command.check(List.of("ip", "netns", "add", name));
        Namespace ns = new Namespace(name);
        try {
            ns.run("ip", "link", "set", "lo", "up");
            return ns;
        } catch (LinkSetupException e) {
            ns.close();
            throw e;
        }
    }

    /** Deletes every {@code acbench-PID...} namespace whose process is gone; returns their names. */
    public static List<String> removeStale() {
        List<String> removed = new ArrayList<>();
        Command.Result list = Command.run(List.of("ip", "netns", "list"));
        if (!list.ok()) {
            return removed;
        }
        for (String line : list.output().split("\n")) {
            Matcher m = OURS.matcher(line.trim());
            if (m.find() && ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true)) {
                String stale = line.trim().split("\\s+")[0];
                if (Command.run(List.of("ip", "netns", "del", stale)).ok()) {
                    removed.add(stale);
                }
            }
        }
        return removed;
    }

    /** Whether a namespace of this name exists now. */
    public static boolean exists(String name) {
        Command.Result list = Command.run(List.of("ip", "netns", "list"));
        return list.ok() && list.output().lines().anyMatch(l -> l.trim().split("\\s+")[0].equals(name));
    }

    /** Its name. */
    public String name() {
        return name;
    }

    /** The prefix that runs a command inside it. */
    public List<String> exec() {
        return List.of("ip", "netns", "exec", name);
    }

    /**
     * Runs a command inside it and returns its output.
     *
     * @throws LinkSetupException if it failed
     */
    public String run(String... argv) throws LinkSetupException {
        List<String> command = new ArrayList<>(exec());
        command.addAll(List.of(argv));
        return Command.check(command);
    }

    /** Runs a command inside it, failing or not. */
    Command.Result attempt(String... argv) {
        List<String> command = new ArrayList<>(exec());
        command.addAll(List.of(argv));
        return Command.run(command);
    }

    /**
     * Whether this kernel has netem: adds it to {@code lo} and takes it away again. Only this
     * namespace's {@code lo} is touched.
     */
    public boolean hasNetem() {
        boolean added = attempt("tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "0ms").ok();
        if (added) {
            attempt("tc", "qdisc", "del", "dev", "lo", "root");
        }
        return added;
    }

    /** Deletes it (the processes inside should be gone first). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Command.run(List.of("ip", "netns", "del", name));
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down and runs the hook anyway; deleting twice is harmless
        }
    }
}
