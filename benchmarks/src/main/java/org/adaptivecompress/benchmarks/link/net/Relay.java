package org.adaptivecompress.benchmarks.link.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * The pacing relay ({@code benchmarks.jar agent relay}), the link where the kernel cannot shape
 * one: it accepts the sender's connection, connects to the receiver and copies between them at
 * the paced rate. Reading only as fast as it forwards, it leaves the sender's socket buffer and
 * its own receive buffer filling behind it, and the receiver's before it, so a writer meets the
 * kernel's buffering on both sides as on a real link.
 *
 * <p>Its line protocol, on standard input and output: it says {@code listening PORT} once up;
 * {@code rate BYTES_PER_SECOND} or {@code rate unlimited} sets the pace from the next chunk on,
 * {@code target PORT} names the receiver for the next connection; each answers {@code ok}.
 * {@code quit} or the end of input stops it.
 */
public final class Relay {

    private final Pacer pacer = new Pacer(Rates.UNLIMITED);
    private volatile int target;

    private Relay() {}

    /** Runs the relay until its input ends; returns the exit status. */
    public static int run() throws IOException {
        PrintStream replies = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        Relay relay = new Relay();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread pump = new Thread(() -> relay.serve(server), "relay-pump");
            pump.setDaemon(true);
            pump.start();
            replies.println("listening " + server.getLocalPort());
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = commands.readLine()) != null && !line.equals("quit")) {
                replies.println(relay.command(line));
            }
        }
        return 0;
    }

    private String command(String line) {
        String[] w = line.trim().split(" ");
        try {
            if (w.length == 2 && w[0].equals("rate")) {
                pacer.setRate(w[1].equals("unlimited") ? Rates.UNLIMITED : Long.parseLong(w[1]));
                return "ok";
            }
            if (w.length == 2 && w[0].equals("target")) {
                target = Integer.parseInt(w[1]);
                return "ok";
            }
        } catch (IllegalArgumentException e) {
            return "failed " + e.getMessage();
        }
        return "failed unknown command '" + line + "'";
    }

    /** Relays one connection after another until the server socket closes. */
    private void serve(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket from = server.accept();
                    Socket to = new Socket(InetAddress.getLoopbackAddress(), target)) {
                to.setTcpNoDelay(true);
                copy(from.getInputStream(), to.getOutputStream());
            } catch (IOException e) {
                if (!server.isClosed()) {
                    System.err.println("relay: connection ended: " + e); // the receiver reports the short stream
                }
            }
        }
    }

    private void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[Pacer.MAX_CHUNK];
        int n;
        while ((n = in.read(buffer, 0, pacer.chunk())) != -1) {
            long wait = pacer.reserve(n, System.nanoTime());
            long until = System.nanoTime() + wait;
            while (wait > 0) {
                LockSupport.parkNanos(wait);
                wait = until - System.nanoTime();
            }
            out.write(buffer, 0, n);
        }
    }
}
