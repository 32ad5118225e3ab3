package org.adaptivecompress.benchmarks.link.agent;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.adaptivecompress.testing.Corpus;

/**
 * The driver's handle on a child JVM that speaks a line protocol on its standard input and
 * output (an agent, or the relay): the same {@code java} and class path as the driver, started
 * behind a prefix such as {@code ip netns exec NS}. Its standard error goes to the driver's.
 */
public final class AgentProcess implements AutoCloseable {

    /** The class whose {@code agent ROLE} arguments start every agent. */
    private static final String MAIN = "org.adaptivecompress.benchmarks.BenchmarkMain";
    /** Time for a JVM to start and answer; a loaded two-core machine took over a second. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Time to exit after {@code quit} before the process is killed. */
    private static final long QUIT_MILLIS = 5_000;
    private static final String EXITED = "\u0000exited";

    private final String role;
    private final Process process;
    private final Writer requests;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private AgentProcess(String role, Process process) {
        this.role = role;
        this.process = process;
        this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(this::readLines, role + "-replies");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code benchmarks agent ROLE} behind {@code prefix} and waits for its first line,
     * which it returns through {@link #nextLine}'s queue untouched.
     *
     * @param heap the {@code -Xmx} value, e.g. {@code 1g}
     * @param trace where a sender writes decision traces ({@link DecisionTrace}), or {@code null}
     */
    public static AgentProcess start(String role, List<String> prefix, String heap, Path trace) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command()
                .orElseThrow(() -> new IOException("cannot tell which java runs this JVM")));
        command.add("-Xmx" + heap);
        command.add("-Dadaptive.corpus.dir=" + Corpus.directory());
        if (trace != null) {
            command.add("-D" + DecisionTrace.DIRECTORY_PROPERTY + "=" + trace.toAbsolutePath());
        }
        command.add("-cp");
        command.add(absoluteClassPath());
        command.add(MAIN);
        command.add("agent");
        command.add(role);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new AgentProcess(role, process);
    }

    /** This JVM's class path with every entry absolute, so it holds from any working directory. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(p -> Paths.get(p).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
    }

    /** Sends one line. */
    public void send(String line) throws IOException {
        requests.write(line);
        requests.write('\n');
        requests.flush();
    }

    /** Sends a request. */
    public void send(Request request) throws IOException {
        send(request.line());
    }

    /**
     * The next line, waiting at most {@code timeout}.
     *
     * @throws IOException if the process exited or said nothing in time
     */
    public String nextLine(Duration timeout) throws IOException {
        String line = pollLine(timeout);
        if (line == null) {
            throw new IOException("the " + role + " said nothing for " + timeout.toSeconds() + " s");
        }
        return line;
    }

    /** The next line, or null if none came within {@code timeout}; throws if the process exited. */
    public String pollLine(Duration timeout) throws IOException {
        String line;
        try {
            line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for the " + role, e);
        }
        if (EXITED.equals(line)) {
            lines.add(EXITED);
            throw new IOException("the " + role + " exited" + exitStatus());
        }
        return line;
    }

    /** The next reply of an agent, within {@code timeout}. */
    public Reply next(Duration timeout) throws IOException {
        return Reply.parse(nextLine(timeout));
    }

    /**
     * The next reply, which must be a {@code type}.
     *
     * @throws IOException naming what came instead, e.g. the agent's failure message
     */
    public <T extends Reply> T expect(Class<T> type, Duration timeout) throws IOException {
        Reply reply = next(timeout);
        if (type.isInstance(reply)) {
            return type.cast(reply);
        }
        throw new IOException("the " + role + " answered '" + reply.line() + "' where " + type.getSimpleName()
                + " was expected");
    }

    /** Waits for the agent's {@code hello}. */
    public AgentProcess awaitHello() throws IOException {
        expect(Reply.Hello.class, START_TIMEOUT);
        return this;
    }

    /** How long to wait for a freshly started process's first line. */
    public static Duration startTimeout() {
        return START_TIMEOUT;
    }

    private void readLines() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process went away: the marker below says so to whoever waits
        } finally {
            lines.add(EXITED);
        }
    }

    private String exitStatus() {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? " with status " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Asks it to quit, and kills it if it has not within a few seconds. */
    @Override
    public void close() {
        try {
            send("quit");
            requests.close();
        } catch (IOException | UncheckedIOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(QUIT_MILLIS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(QUIT_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
