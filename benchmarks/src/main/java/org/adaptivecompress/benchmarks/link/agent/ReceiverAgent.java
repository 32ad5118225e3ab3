package org.adaptivecompress.benchmarks.link.agent;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.adaptivecompress.stream.AdaptiveInputStream;

/**
 * The receiving agent: listens for one transfer, decodes it with the contender's decoder and
 * checks every byte against the prepared input, reporting marks as it passes them and the time
 * the last byte was verified.
 */
final class ReceiverAgent {

    /** One read: a default block, so a sample's time is never older than the block it ends. */
    private static final int READ_SIZE = 128 << 10;

    private final InputCache cache;

    ReceiverAgent(InputCache cache) {
        this.cache = cache;
    }

    /**
     * Receives one transfer; {@code early} is told the {@link Reply.Listening} port and each
     * {@link Reply.Mark} as they happen, the returned reply comes last.
     */
    Reply receive(Request.Receive request, Consumer<Reply> early) {
        try {
            Contender contender = Contender.parse(request.contender());
            LinkInput expected = cache.input();
            int timeout = (int) Math.min(Integer.MAX_VALUE, request.timeoutMillis());
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                server.setSoTimeout(timeout);
                early.accept(new Reply.Listening(server.getLocalPort()));
                try (Socket socket = server.accept()) {
                    socket.setSoTimeout(timeout);
                    return verify(decoder(contender, socket.getInputStream()), expected, request, early);
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Reply.Failed("receiver: " + e);
        }
    }

    private static Reply verify(InputStream decoded, LinkInput expected, Request.Receive request,
            Consumer<Reply> early) throws IOException {
        byte[] buffer = new byte[READ_SIZE];
        long[] marks = request.marks();
        int every = request.sampleEvery();
        long[] samples = new long[every > 0 ? (int) (expected.length() / every) : 0];
        int nextSample = 0;
        int nextMark = 0;
        long position = 0;
        try (InputStream in = decoded) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                long wrong = expected.mismatch(position, buffer, n);
                if (wrong >= 0) {
                    return new Reply.Received(System.nanoTime(), position, "mismatch@" + wrong, new long[0]);
                }
                position += n;
                long now = System.nanoTime();
                while (nextSample < samples.length && position >= (nextSample + 1L) * every) {
                    samples[nextSample++] = now;
                }
                while (nextMark < marks.length && position >= marks[nextMark]) {
                    early.accept(new Reply.Mark(nextMark++, now));
                }
            }
        }
        long end = System.nanoTime();
        return new Reply.Received(end, position, position == expected.length() ? "ok" : "short", samples);
    }

    private static InputStream decoder(Contender contender, InputStream socket) throws IOException {
        return switch (contender.kind()) {
            case PLAIN -> socket;
            case FIXED, ADAPTIVE -> AdaptiveInputStream.builder().build(socket);
            case NATIVE -> contender.binary().equals("lz4") ? new LZ4FrameInputStream(socket)
                    : new ZstdInputStream(socket);
        };
    }
}
