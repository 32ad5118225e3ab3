package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.adaptivecompress.benchmarks.link.agent.AgentProcess;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.agent.Reply;
import org.adaptivecompress.benchmarks.link.agent.Request;
import org.adaptivecompress.benchmarks.link.net.Link;
import org.adaptivecompress.benchmarks.scenario.Scenario;

/**
 * The driver's side of the transfers: the sending and receiving agents, started where the link
 * runs them, and the link itself, which it reshapes as the receiver reports marks. An agent that
 * fails in a way it cannot recover from (a sender that never connected leaves the receiver
 * waiting) is restarted with its input prepared again, and the transfer counts as failed.
 */
final class Agents implements AutoCloseable {

    /** One verified-bytes sample per default block. */
    static final int SAMPLE_BYTES = 128 << 10;

    /** 128 MiB of input, the receiver's decoded reads and the codecs' state (xz -6 takes 94 MiB) fit with room. */
    private static final String HEAP = "1g";
    /** For answers that take no transfer (listening, ready for a cached input). */
    private static final Duration ANSWER = Duration.ofSeconds(60);
    /** Making 128 MiB of a scenario takes about a second; a busy machine, many. */
    private static final Duration PREPARE = Duration.ofMinutes(5);
    /** Beyond a deadline, time for the agents to notice, close and answer. */
    private static final Duration GRACE = Duration.ofSeconds(30);
    /** A transfer without a deadline (the first of a cell) that takes this long is broken. */
    private static final Duration NO_DEADLINE = Duration.ofMinutes(30);
    /** How often the wait for a transfer looks at the sender while the receiver is quiet. */
    private static final Duration POLL = Duration.ofMillis(20);

    private final Link link;
    private final PrintStream log;
    private AgentProcess sender;
    private AgentProcess receiver;
    private Request.Prepare prepared;

    private final Path trace;

    private Agents(Link link, Path trace, PrintStream log) {
        this.link = link;
        this.trace = trace;
        this.log = log;
    }

    /**
     * Starts both agents where {@code link} runs them; the sender writes decision traces into
     * {@code trace} if it is not {@code null}.
     */
    static Agents start(Link link, Path trace, PrintStream log) throws IOException {
        Agents agents = new Agents(link, trace, log);
        try {
            agents.launch();
            return agents;
        } catch (IOException | RuntimeException e) {
            agents.close();
            throw e;
        }
    }

    private void launch() throws IOException {
        sender = AgentProcess.start("sender", link.launchPrefix(), HEAP, trace);
        receiver = AgentProcess.start("receiver", link.launchPrefix(), HEAP, null);
        sender.awaitHello();
        receiver.awaitHello();
    }

    /** The link the transfers cross. */
    Link link() {
        return link;
    }

    /** Has both agents make {@code length} bytes of {@code scenario} from {@code offset}, side by side. */
    void prepare(Scenario scenario, long offset, long length) throws IOException {
        Request.Prepare request = new Request.Prepare(scenario, offset, length);
        sender.send(request);
        receiver.send(request);
        sender.expect(Reply.Ready.class, PREPARE);
        receiver.expect(Reply.Ready.class, PREPARE);
        prepared = request;
    }

    /**
     * One transfer of the prepared input by {@code contender}.
     *
     * @param deadline seconds after which it is cut off, 0 for none
     * @param steps rate changes keyed to the verified bytes; with any, the receiver samples its progress
     */
    Measurement.Run transfer(Contender contender, long length, double deadline, List<RateStep> steps)
            throws IOException {
        long deadlineMillis = deadline > 0 ? (long) Math.ceil(deadline * 1000) : 0;
        Duration patience = deadline > 0 ? Duration.ofMillis(deadlineMillis).plus(GRACE) : NO_DEADLINE;
        long[] marks = steps.stream().mapToLong(s -> (long) (s.afterFraction() * length)).toArray();
        boolean sampled = !steps.isEmpty() || contender.kind() == Contender.Kind.PLAIN;
        receiver.send(new Request.Receive(contender.id(), patience.toMillis(), marks, sampled ? SAMPLE_BYTES : 0));
        int port = receiver.expect(Reply.Listening.class, ANSWER).port();
        sender.send(new Request.Send(contender.id(), link.portFor(port), deadlineMillis));
        long[] applied = new long[steps.size()];
        Reply received = null;
        Reply sent = null;
        long giveUp = System.nanoTime() + patience.toNanos();
        while ((received == null || sent == null) && System.nanoTime() < giveUp) {
            if (received == null) {
                String line = receiver.pollLine(POLL);
                Reply r = line == null ? null : Reply.parse(line);
                if (r instanceof Reply.Mark m) {
                    link.stepRate(steps.get(m.index()).bytesPerSecond());
                    applied[m.index()] = System.nanoTime();
                } else {
                    received = r;
                }
            }
            if (sent == null) {
                String line = sender.pollLine(received == null ? Duration.ZERO : POLL);
                sent = line == null ? null : Reply.parse(line);
            }
            if (received == null && sent instanceof Reply.Failed) {
                break; // the sender never got going: the receiver would wait out its timeout
            }
        }
        return outcome(contender, deadline, received, sent, applied);
    }

    private Measurement.Run outcome(Contender contender, double deadline, Reply received, Reply sent, long[] applied)
            throws IOException {
        if (sent instanceof Reply.Aborted a) {
            return Measurement.Run.aborted(deadline, a.wireBytes());
        }
        if (sent instanceof Reply.Sent s && received instanceof Reply.Received r) {
            if (!r.verified()) {
                log.println("  ! " + contender.label() + ": the receiver found " + r.verdict() + " after " + r.bytes()
                        + " bytes");
            }
            double[] samples = Arrays.stream(r.samples()).mapToDouble(t -> (t - s.startNanos()) / 1e9).toArray();
            double[] steps = Arrays.stream(applied).mapToDouble(t -> (t - s.startNanos()) / 1e9).toArray();
            return new Measurement.Run((r.endNanos() - s.startNanos()) / 1e9, s.wireBytes(), r.verified(), false,
                    inFlight(s.writes(), r.samples()), s.rungs(), s.blocks(), samples, steps, s.cpuNanos());
        }
        log.println("  ! " + contender.label() + " failed: sender " + describe(sent) + "; receiver "
                + describe(received) + "; restarting both agents");
        restart();
        return Measurement.Run.failed();
    }

    /**
     * The most bytes written and not yet verified at once, from the times at which each multiple
     * of {@value #SAMPLE_BYTES} bytes was written and verified (one clock); -1 without both.
     */
    static long inFlight(long[] writes, long[] verifies) {
        if (writes.length == 0 || verifies.length == 0) {
            return -1;
        }
        long most = 0;
        int verified = 0;
        for (int k = 0; k < writes.length; k++) {
            while (verified < verifies.length && verifies[verified] <= writes[k]) {
                verified++;
            }
            most = Math.max(most, (long) (k + 1 - verified) * SAMPLE_BYTES);
        }
        return most;
    }

    private static String describe(Reply reply) {
        return reply == null ? "said nothing in time" : "'" + reply.line() + "'";
    }

    private void restart() throws IOException {
        closeAgents();
        launch();
        if (prepared != null) {
            prepare(prepared.scenario(), prepared.offset(), prepared.length());
        }
    }

    private void closeAgents() {
        if (sender != null) {
            sender.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    /** Stops both agents; the link stays open. */
    @Override
    public void close() {
        closeAgents();
    }

    /**
     * A change of the link rate during a transfer: once the receiver has verified
     * {@code afterFraction} of the input, the link runs at {@code bytesPerSecond}. Keyed to the
     * data rather than the clock, so every contender, fast or slow, meets the same stretch of
     * data on the slow link.
     */
    record RateStep(double afterFraction, long bytesPerSecond) {}
}
