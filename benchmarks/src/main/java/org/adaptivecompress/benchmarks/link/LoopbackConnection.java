package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One TCP connection over loopback for a timed transfer: Nagle's algorithm off on the sending
 * end, as cluster clients (Kafka, Netty, Hadoop IPC) set it, and a daemon thread for the
 * receiving end, so the caller's thread sends. Closing it closes both ends and stops that
 * thread.
 */
final class LoopbackConnection implements AutoCloseable {

    private static final long TIMEOUT_MINUTES = 10;

    private final ServerSocket server;
    private final Socket sending;
    private final Socket receiving;
    private final ExecutorService receiver;

    private LoopbackConnection(ServerSocket server, Socket sending, Socket receiving, String receiverThreadName) {
        this.server = server;
        this.sending = sending;
        this.receiving = receiving;
        this.receiver = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, receiverThreadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Connects; the receiving thread is named {@code receiverThreadName}. */
    static LoopbackConnection open(String receiverThreadName) throws IOException {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        try {
            Socket sending = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            try {
                sending.setTcpNoDelay(true);
                return new LoopbackConnection(server, sending, server.accept(), receiverThreadName);
            } catch (IOException e) {
                sending.close();
                throw e;
            }
        } catch (IOException e) {
            server.close();
            throw e;
        }
    }

    /** The sending end. */
    OutputStream out() throws IOException {
        return sending.getOutputStream();
    }

    /** The receiving end, for the task given to {@link #receive}. */
    InputStream in() throws IOException {
        return receiving.getInputStream();
    }

    /** Starts {@code task} on the receiving thread. */
    <T> Future<T> receive(Callable<T> task) {
        return receiver.submit(task);
    }

    /** What the receiving task returned, waiting at most ten minutes for it. */
    static <T> T await(Future<T> received) throws IOException, InterruptedException {
        try {
            return received.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw new IOException("receiver failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("receiver did not finish within " + TIMEOUT_MINUTES + " minutes", e);
        }
    }

    @Override
    public void close() throws IOException {
        try (server; sending; receiving) {
            receiver.shutdownNow();
        }
    }
}
