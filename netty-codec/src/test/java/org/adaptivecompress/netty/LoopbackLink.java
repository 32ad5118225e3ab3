package org.adaptivecompress.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One transfer over real loopback TCP: a client writes the data through an encoder, optionally
 * throttled by an emulated link placed between the encoder and the socket ({@link PacedLink}, or
 * another handler such as Netty's {@code ChannelTrafficShapingHandler}), and a server decodes it
 * and counts (or keeps) what arrives.
 */
final class LoopbackLink {

    /** The transports a transfer can run on. */
    enum Transport {
        NIO, EPOLL;

        boolean isAvailable() {
            return this == NIO || Epoll.isAvailable();
        }

        EventLoopGroup newGroup(int threads) {
            return this == NIO ? new NioEventLoopGroup(threads) : new EpollEventLoopGroup(threads);
        }

        Class<? extends ServerChannel> serverChannel() {
            return this == NIO ? NioServerSocketChannel.class : EpollServerSocketChannel.class;
        }

        Class<? extends Channel> channel() {
            return this == NIO ? NioSocketChannel.class : EpollSocketChannel.class;
        }
    }

    /** What one transfer did. */
    static final class Result {
        final byte[] received;
        final long wireBytes;
        final long nanos;

        Result(byte[] received, long wireBytes, long nanos) {
            this.received = received;
            this.wireBytes = wireBytes;
            this.nanos = nanos;
        }
    }

    /**
     * The application's writes: one flush per 128 KiB, the encoder's default block size, so each
     * flush seals a full block (a flush compresses the partial block it finds).
     */
    private static final int WRITE_CHUNK = 128 * 1024;

    private LoopbackLink() {}

    /**
     * Sends {@code data}, timing first byte written to last byte decoded.
     *
     * @param bytesPerSecond the rate of the {@link PacedLink} between the encoder and the socket,
     *     or 0 for none
     * @param keep whether to keep the received bytes (for a bit-exact check) or only count them
     */
    static Result transfer(Transport transport, long bytesPerSecond, Supplier<ChannelHandler> encoder,
            Supplier<ChannelHandler> decoder, byte[] data, boolean keep) throws Exception {
        return transfer(transport, bytesPerSecond > 0 ? () -> new PacedLink(bytesPerSecond) : null, encoder, decoder,
                data, keep);
    }

    /**
     * Sends {@code data} through {@code link} (a handler between the encoder and the socket that
     * emulates a link, or null for none), timing first byte written to last byte decoded.
     */
    static Result transfer(Transport transport, Supplier<ChannelHandler> link, Supplier<ChannelHandler> encoder,
            Supplier<ChannelHandler> decoder, byte[] data, boolean keep) throws Exception {
        ChannelHandler[] clientHandlers = link != null
                ? new ChannelHandler[] {link.get(), encoder.get()}
                : new ChannelHandler[] {encoder.get()};
        try (Connection connection = connect(transport, decoder, data.length, keep, clientHandlers)) {
            long start = System.nanoTime();
            for (int i = 0; i < data.length; i += WRITE_CHUNK) {
                connection.client.writeAndFlush(Unpooled.wrappedBuffer(data, i, Math.min(WRITE_CHUNK, data.length - i)));
            }
            byte[] received = connection.sink.done.get(10, TimeUnit.MINUTES);
            long nanos = connection.sink.lastByteNanos - start;
            connection.client.close().sync();
            return new Result(received, connection.wire.bytes, nanos);
        }
    }

    /**
     * Connects a client whose pipeline holds {@code clientHandlers} (socket side first) to a
     * server that decodes with {@code decoder} into a {@link Sink} expecting {@code expected}
     * bytes, for tests that drive the client channel themselves.
     */
    static Connection connect(Transport transport, Supplier<ChannelHandler> decoder, int expected, boolean keep,
            ChannelHandler... clientHandlers) throws InterruptedException {
        EventLoopGroup group = transport.newGroup(2);
        try {
            Sink sink = new Sink(expected, keep);
            WireCounter wire = new WireCounter();
            Channel server = new ServerBootstrap().group(group).channel(transport.serverChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(wire, decoder.get(), sink);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            Channel client = new Bootstrap().group(group).channel(transport.channel())
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(clientHandlers);
                        }
                    })
                    .connect(server.localAddress()).sync().channel();
            return new Connection(group, server, client, sink, wire);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            throw e;
        }
    }

    /** A client connected to a decoding server; closing it closes both and their event loops. */
    static final class Connection implements AutoCloseable {
        final Channel client;
        final Sink sink;
        final WireCounter wire;
        private final Channel server;
        private final EventLoopGroup group;

        Connection(EventLoopGroup group, Channel server, Channel client, Sink sink, WireCounter wire) {
            this.group = group;
            this.server = server;
            this.client = client;
            this.sink = sink;
            this.wire = wire;
        }

        @Override
        public void close() throws InterruptedException {
            try {
                // Awaited, not synced: a test may have made the close fail on purpose.
                client.close().await();
                server.close().sync();
            } finally {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            }
        }
    }

    /** Counts the compressed bytes that reach the server. */
    @ChannelHandler.Sharable
    static final class WireCounter extends ChannelInboundHandlerAdapter {
        volatile long bytes;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            bytes += ((ByteBuf) msg).readableBytes();
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * Counts (and keeps) decoded bytes; done once all have arrived, or failed with the first
     * exception the server's pipeline reports, or when the connection closes first.
     */
    @ChannelHandler.Sharable
    static final class Sink extends ChannelInboundHandlerAdapter {
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        private final int expected;
        private final byte[] received;
        private int count;
        volatile long lastByteNanos;

        Sink(int expected, boolean keep) {
            this.expected = expected;
            this.received = keep ? new byte[expected] : null;
        }

        /** The bytes kept so far; call it once {@link #done} has completed, which publishes them. */
        byte[] receivedSoFar() {
            return Arrays.copyOf(received, count);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                int n = buf.readableBytes();
                if (count + n > expected) {
                    done.completeExceptionally(new AssertionError("more bytes than were sent"));
                    return;
                }
                if (received != null) {
                    buf.readBytes(received, count, n);
                }
                count += n;
                if (count == expected) {
                    lastByteNanos = System.nanoTime();
                    done.complete(received);
                }
            } finally {
                buf.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            done.completeExceptionally(new AssertionError("connection closed after " + count + " of "
                    + expected + " bytes"));
        }
    }
}
