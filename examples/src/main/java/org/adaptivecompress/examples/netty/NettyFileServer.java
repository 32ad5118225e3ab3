package org.adaptivecompress.examples.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.netty.AdaptiveCompression;

/**
 * A Netty server that receives files into a directory: each connection carries one file, sent
 * by {@link NettyFileClient}, and is answered with the byte count and SHA-256 of what was
 * written. Both directions go through the adaptive decoder and encoder.
 *
 * <pre>
 * try (NettyFileServer server = NettyFileServer.start("127.0.0.1", 0, directory, AdaptiveCompressionOptions.defaults())) {
 *     int port = server.port();
 *     ...
 * }
 * </pre>
 */
public final class NettyFileServer implements AutoCloseable {

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;

    private NettyFileServer(EventLoopGroup bossGroup, EventLoopGroup workerGroup, Channel serverChannel) {
        this.bossGroup = bossGroup;
        this.workerGroup = workerGroup;
        this.serverChannel = serverChannel;
    }

    /**
     * Binds {@code host:port} ({@code 0} picks a free port) and serves until {@link #close()}.
     *
     * @param directory where received files are written, under the last element of the name the client sends
     * @param options the compression of the replies (the client's options govern the file's bytes)
     */
    public static NettyFileServer start(String host, int port, Path directory, AdaptiveCompressionOptions options)
            throws InterruptedException {
        Objects.requireNonNull(directory, "directory is null");
        Objects.requireNonNull(options, "options is null");
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(1);
        try {
            Channel channel = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            AdaptiveCompression.addTo(ch.pipeline(), options);
                            ch.pipeline().addLast(new FileReceiver(directory));
                        }
                    })
                    .bind(host, port).sync().channel();
            return new NettyFileServer(boss, workers, channel);
        } catch (RuntimeException | InterruptedException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The port the server listens on. */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        // no quiet period: nothing is submitted to these loops once the server is closed
        bossGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
