package org.adaptivecompress.benchmarks.link.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code tc} process for the life of a link, reading commands from its standard input
 * ({@code tc -s -n NS -force -batch -}, line-buffered through {@code stdbuf}): a rate change
 * then takes about 0.2 ms where starting {@code tc} for each took 3-5 ms, in which 1 Gbit/s
 * carries half a megabyte past a step that should have slowed it. After each command it asks
 * for {@code qdisc show dev lo}, whose answer says the command is done and carries the qdisc's
 * counters; anything printed before that answer is the command's error.
 */
final class TcSession implements AutoCloseable {

    private final Process process;
    private final Writer commands;
    private final BufferedReader answers;

    private TcSession(Process process) {
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts {@code tc} in batch mode on {@code namespace}.
     *
     * @throws LinkSetupException if it does not answer ({@code stdbuf} or {@code tc} missing, not root)
     */
    static TcSession open(Namespace namespace) throws LinkSetupException {
        try {
            Process p = new ProcessBuilder("stdbuf", "-oL", "tc", "-s", "-n", namespace.name(), "-force", "-batch", "-")
                    .redirectErrorStream(true).start();
            TcSession session = new TcSession(p);
            session.show();
            return session;
        } catch (IOException e) {
            throw new LinkSetupException("cannot run 'stdbuf -oL tc -batch -' in " + namespace.name() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code command} (e.g. {@code qdisc change dev lo root tbf ...}) and returns the root
     * qdisc's counters right after it.
     *
     * @throws LinkSetupException with what {@code tc} said, if the command failed
     */
    synchronized QdiscCounters apply(String command) throws LinkSetupException {
        return ask(command + "\nqdisc show dev lo", command);
    }

    /** The root qdisc's counters now. */
    synchronized QdiscCounters show() throws LinkSetupException {
        return ask("qdisc show dev lo", "qdisc show dev lo");
    }

    private QdiscCounters ask(String lines, String what) throws LinkSetupException {
        try {
            commands.write(lines + "\n");
            commands.flush();
            List<String> errors = new ArrayList<>();
            StringBuilder shown = new StringBuilder();
            String line;
            while ((line = answers.readLine()) != null) {
                if (shown.length() == 0 && !line.startsWith("qdisc ")) {
                    errors.add(line.trim());
                    continue;
                }
                shown.append(line).append('\n');
                if (line.trim().startsWith("backlog")) {
                    break;
                }
            }
            if (line == null) {
                throw new LinkSetupException("tc exited during '" + what + "': " + String.join("; ", errors));
            }
            if (!errors.isEmpty()) {
                throw new LinkSetupException("tc failed on '" + what + "': " + String.join("; ", errors));
            }
            return QdiscCounters.parse(shown.toString());
        } catch (IOException e) {
            throw new LinkSetupException("tc stopped answering during '" + what + "'", e);
        }
    }

    @Override
    public void close() {
        try {
            commands.close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
