package org.adaptivecompress.examples.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.traffic.ChannelTrafficShapingHandler;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.netty.AdaptiveCompression;
import org.adaptivecompress.netty.AdaptiveCompressionEncoder;

/**
 * A Netty client that sends a file to a {@link NettyFileServer} through the adaptive encoder,
 * one connection per file, and checks the server's SHA-256 against its own.
 *
 * <pre>
 * try (NettyFileClient client = new NettyFileClient(AdaptiveCompressionOptions.defaults(), 0)) {
 *     FileTransfer t = client.send(Path.of("big.log"), "127.0.0.1", port);
 *     System.out.println(t.statistics().blocksByRung());
 * }
 * </pre>
 */
public final class NettyFileClient implements AutoCloseable {

    /** Longest a transfer may take before {@link #send} gives up: it never waits forever. */
    private static final long TIMEOUT_MINUTES = 10;

    private final AdaptiveCompressionOptions options;
    private final long bytesPerSecond;
    private final EventLoopGroup group = new NioEventLoopGroup(1);

    /**
     * @param options the compression of the file's bytes
     * @param bytesPerSecond if positive, the client's writes are throttled to this rate by Netty's
     *     {@link ChannelTrafficShapingHandler}, below the encoder, to emulate a slow link; 0 for none
     */
    public NettyFileClient(AdaptiveCompressionOptions options, long bytesPerSecond) {
        this.options = Objects.requireNonNull(options, "options is null");
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("bytesPerSecond < 0: " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    /**
     * Sends {@code file} to {@code host:port} and waits for the server's reply.
     *
     * @throws IOException if the transfer fails, or the server wrote other bytes than were sent
     */
    public FileTransfer send(Path file, String host, int port) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Promise<FileTransfer.Reply> reply = group.next().newPromise();
        AdaptiveCompressionEncoder[] encoder = new AdaptiveCompressionEncoder[1];
        Channel channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (bytesPerSecond > 0) {
                            // nearest the socket: it must see (and delay) the compressed bytes
                            ch.pipeline().addLast(new ChannelTrafficShapingHandler(bytesPerSecond, 0));
                        }
                        encoder[0] = AdaptiveCompression.addTo(ch.pipeline(), options);
                        ch.pipeline().addLast(new FileSender(file, reply));
                    }
                })
                .connect(host, port).sync().channel();
        try {
            FileTransfer.Reply r = reply.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
            long nanos = System.nanoTime() - start;
            if (r.written() != r.sent() || !MessageDigest.isEqual(r.sentDigest(), r.writtenDigest())) {
                throw new IOException("the server wrote " + r.written() + " bytes that differ from the "
                        + r.sent() + " sent");
            }
            return new FileTransfer(r.sent(), nanos, r.sentDigest(), encoder[0].statistics());
        } catch (ExecutionException e) {
            throw new IOException("sending " + file + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("no reply after " + TIMEOUT_MINUTES + " minutes", e);
        } finally {
            // close() compresses what is pending and ends the stream before the socket closes
            channel.close().sync();
        }
    }

    /** Shuts the client's event loop down. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
