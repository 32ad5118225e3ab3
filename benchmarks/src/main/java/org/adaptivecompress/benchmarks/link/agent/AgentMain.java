package org.adaptivecompress.benchmarks.link.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The main loop of a sending or receiving agent ({@code benchmarks.jar agent sender|receiver}):
 * reads requests from standard input and answers on standard output until {@code quit} or the
 * end of input, so an agent never outlives its driver.
 */
public final class AgentMain {

    private final String role;
    private final PrintStream replies;
    private final InputCache cache = new InputCache();
    private final SenderAgent sender = new SenderAgent(cache);
    private final ReceiverAgent receiver = new ReceiverAgent(cache);

    private AgentMain(String role, PrintStream replies) {
        this.role = role;
        this.replies = replies;
    }

    /**
     * Serves requests for {@code role} ({@code sender} or {@code receiver}); returns the exit status.
     *
     * @throws IllegalArgumentException for another role
     */
    public static int run(String role) throws IOException {
        if (!role.equals("sender") && !role.equals("receiver")) {
            throw new IllegalArgumentException("unknown agent role '" + role + "'; expected sender, receiver or relay");
        }
        // Replies only on this stream; anything a library prints goes to standard error instead.
        PrintStream replies = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        return new AgentMain(role, replies).serve(new BufferedReader(new InputStreamReader(System.in,
                StandardCharsets.UTF_8)));
    }

    private int serve(BufferedReader requests) throws IOException {
        reply(new Reply.Hello(role));
        String line;
        while ((line = requests.readLine()) != null) {
            Request request;
            try {
                request = Request.parse(line);
            } catch (IllegalArgumentException e) {
                reply(new Reply.Failed(e.getMessage()));
                continue;
            }
            if (request instanceof Request.Quit) {
                break;
            }
            reply(handle(request));
        }
        return 0;
    }

    private Reply handle(Request request) {
        if (request instanceof Request.Prepare p) {
            try {
                long start = System.nanoTime();
                cache.prepare(p.scenario(), p.offset(), p.length());
                return new Reply.Ready((System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException e) {
                return new Reply.Failed(role + ": " + e);
            }
        }
        if (request instanceof Request.Send s && role.equals("sender")) {
            return sender.send(s);
        }
        if (request instanceof Request.Receive r && role.equals("receiver")) {
            return receiver.receive(r, this::reply);
        }
        return new Reply.Failed("the " + role + " does not take '" + request.line() + "'");
    }

    private synchronized void reply(Reply reply) {
        replies.println(reply.line());
    }
}
