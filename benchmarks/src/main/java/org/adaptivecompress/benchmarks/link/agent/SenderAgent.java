package org.adaptivecompress.benchmarks.link.agent;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The sending agent: connects to the port the driver names (the receiver's, or the relay's in
 * front of it), Nagle's algorithm off as cluster clients set it, and sends the prepared input
 * with one contender, timing from just before its first write.
 */
final class SenderAgent {

    private final InputCache cache;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sender-deadline");
        t.setDaemon(true);
        return t;
    });

    SenderAgent(InputCache cache) {
        this.cache = cache;
    }

    /** Sends the prepared input; the reply says how it went. */
    Reply send(Request.Send request) {
        try {
            Contender contender = Contender.parse(request.contender());
            LinkInput input = cache.input();
            try (Socket socket = new Socket()) {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), request.port()));
                return send(contender, input, socket, request.deadlineMillis());
            }
        } catch (IOException | RuntimeException e) {
            return new Reply.Failed("sender: " + e);
        }
    }

    private Reply send(Contender contender, LinkInput input, Socket socket, long deadlineMillis) throws IOException {
        CountingOutputStream wire = new CountingOutputStream(socket.getOutputStream());
        Encoder encoder = Encoder.forContender(contender);
        AtomicBoolean cut = new AtomicBoolean();
        ScheduledFuture<?> deadline = deadlineMillis <= 0 ? null : deadlines.schedule(() -> {
            cut.set(true);
            encoder.abort();
            closeQuietly(socket); // wakes a blocked write; the next write fails
        }, deadlineMillis, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        try {
            Encoder.Outcome outcome = encoder.send(input, wire, start);
            if (cut.get()) {
                return new Reply.Aborted(start, wire.count());
            }
            return new Reply.Sent(start, wire.count(), outcome.writes(), outcome.rungs(), outcome.blocks(),
                    outcome.cpuNanos());
        } catch (IOException | RuntimeException e) {
            if (cut.get()) {
                return new Reply.Aborted(start, wire.count());
            }
            throw e;
        } finally {
            if (deadline != null) {
                deadline.cancel(false);
            }
            encoder.abort(); // a native codec that failed mid-way must not outlive its transfer
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing to interrupt: nothing more to do
        }
    }
}
