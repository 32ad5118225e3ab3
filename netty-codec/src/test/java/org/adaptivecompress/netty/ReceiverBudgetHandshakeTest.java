package org.adaptivecompress.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.internal.format.BudgetFrame;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each peer advertises its budget as the channel opens, and the other compresses only inside it. */
class ReceiverBudgetHandshakeTest {

    private static final ReceiverBudget SMALL = ReceiverBudget.parse("lz4,zstd:3,window=0,block=64k");
    /** Pinned to the top rung, xz:6 with histories: everything a small receiver refuses. */
    private static final AdaptiveCompressionOptions GREEDY = AdaptiveCompressionOptions.builder().controller("fixed:6")
            .history(true).build();

    @AfterEach
    void noLeaks() throws InterruptedException {
        FailingLeakDetector.assertNoLeaks();
    }

    @Test
    void overTcpEachSideStaysInsideWhatTheOtherAdvertised() throws Exception {
        byte[] toServer = DataKind.jsonEvents(2 << 20, 5);
        byte[] toClient = DataKind.jsonEvents(1 << 20, 6);
        EventLoopGroup group = new NioEventLoopGroup(2);
        try {
            CompletableFuture<byte[]> serverGot = new CompletableFuture<>();
            CompletableFuture<ReceiverBudgetHandshake> serverSide = new CompletableFuture<>();
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            serverSide.complete(AdaptiveCompression.addNegotiating(ch.pipeline(), GREEDY,
                                    Runnable::run, SMALL));
                            ch.pipeline().addLast(new Collector(serverGot, toServer.length));
                            ch.writeAndFlush(Unpooled.wrappedBuffer(toClient)); // before the handshake is over
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            CompletableFuture<byte[]> clientGot = new CompletableFuture<>();
            ReceiverBudgetHandshake[] clientSide = new ReceiverBudgetHandshake[1];
            Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            clientSide[0] = AdaptiveCompression.addNegotiating(ch.pipeline(), GREEDY,
                                    CompressionExecutors.shared(), ReceiverBudget.defaults());
                            ch.pipeline().addLast(new Collector(clientGot, toClient.length));
                        }
                    }).connect(server.localAddress()).sync().channel();
            // Written at once, before the server's budget can have arrived: they wait for it.
            for (int i = 0; i < toServer.length; i += 100_000) {
                client.write(Unpooled.wrappedBuffer(toServer, i, Math.min(100_000, toServer.length - i)));
            }
            ChannelFuture closed = client.writeAndFlush(Unpooled.EMPTY_BUFFER);
            assertThat(closed.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(closed.isSuccess()).as("%s", closed.cause()).isTrue();

            AdaptiveCompressionEncoder clientEncoder = clientSide[0].encoder().get(60, TimeUnit.SECONDS);
            assertThat(clientSide[0].peerBudget()).isEqualTo(SMALL);
            assertThat(serverGot.get(60, TimeUnit.SECONDS)).isEqualTo(toServer);
            assertThat(clientGot.get(60, TimeUnit.SECONDS)).isEqualTo(toClient);
            client.close().sync();

            CompressionStatistics sent = clientEncoder.statistics();
            assertThat(sent.ladder()).hasToString("raw,lz4,zstd:1,zstd:3");
            assertThat(sent.blocks(3)).as(sent.blocksByRung()).isEqualTo(sent.totalBlocks()).isGreaterThan(16);

            CompressionStatistics received = serverSide.get().encoder().get().statistics();
            assertThat(received.ladder()).isEqualTo(Ladder.defaultLadder());
            assertThat(received.ladder().rung(6)).isEqualTo(Rung.xz(6));
            assertThat(received.blocks(6)).as(received.blocksByRung()).isEqualTo(received.totalBlocks());
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void writesWaitForThePeersBudgetAndKeepTheirOrder() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel();
        ReceiverBudgetHandshake handshake = AdaptiveCompression.addNegotiating(channel.pipeline(), GREEDY,
                Runnable::run, ReceiverBudget.defaults());
        assertThat(Channels.drainOutbound(channel)).isEqualTo(BudgetFrame.encode(ReceiverBudget.defaults()));
        ChannelFuture first = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        ChannelFuture second = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {4, 5}));
        assertThat(channel.outboundMessages()).isEmpty();
        assertThat(first.isDone()).isFalse();

        byte[] frame = BudgetFrame.encode(SMALL);
        channel.writeInbound(Unpooled.wrappedBuffer(frame, 0, 5));
        assertThat(handshake.encoder().isDone()).isFalse();
        channel.writeInbound(Unpooled.wrappedBuffer(frame, 5, frame.length - 5));
        Channels.runUntil(channel, second::isDone);
        assertThat(first.isSuccess()).isTrue();
        assertThat(second.isSuccess()).isTrue();
        assertThat(channel.pipeline().get(AdaptiveCompression.HANDSHAKE_NAME)).isNull();
        assertThat(channel.pipeline().get(AdaptiveCompression.ENCODER_NAME)).isSameAs(handshake.encoder().get());
        assertThat(handshake.encoder().get().statistics().ladder()).hasToString("raw,lz4,zstd:1,zstd:3");

        channel.close();
        Channels.runUntil(channel, () -> !channel.isOpen());
        byte[] wire = Channels.drainOutbound(channel);
        EmbeddedChannel reader = new EmbeddedChannel(new AdaptiveCompressionDecoder(SMALL, Long.MAX_VALUE,
                Long.MAX_VALUE));
        reader.writeInbound(Unpooled.wrappedBuffer(wire));
        assertThat(Channels.drainInbound(reader)).containsExactly(1, 2, 3, 4, 5);
        channel.finishAndReleaseAll();
        reader.finishAndReleaseAll();
    }

    @Test
    void bytesThatFollowTheBudgetInTheSameReadReachTheDecoder() throws Exception {
        EmbeddedChannel peer = new EmbeddedChannel();
        AdaptiveCompression.addNegotiating(peer.pipeline(), GREEDY, Runnable::run, ReceiverBudget.defaults());
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(Channels.drainOutbound(peer));
        peer.writeInbound(Unpooled.wrappedBuffer(BudgetFrame.encode(ReceiverBudget.defaults())));
        peer.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {9, 8, 7}));
        peer.close();
        Channels.runUntil(peer, () -> !peer.isOpen());
        wire.write(Channels.drainOutbound(peer));

        EmbeddedChannel channel = new EmbeddedChannel();
        AdaptiveCompression.addNegotiating(channel.pipeline(), GREEDY, Runnable::run, ReceiverBudget.defaults());
        channel.writeInbound(Unpooled.wrappedBuffer(wire.toByteArray()));
        assertThat(Channels.drainInbound(channel)).containsExactly(9, 8, 7);
        channel.finishAndReleaseAll();
    }

    @Test
    void aChannelThatReadsOnlyWhenAskedIsAskedForThePeersBudget() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(false, false);
        channel.config().setAutoRead(false);
        AtomicInteger reads = new AtomicInteger();
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads.incrementAndGet();
                ctx.read();
            }
        });
        ReceiverBudgetHandshake handshake = AdaptiveCompression.addNegotiating(channel.pipeline(), GREEDY,
                Runnable::run, ReceiverBudget.defaults());
        channel.register();
        assertThat(reads.get()).as("asked as it became active").isPositive();
        byte[] frame = BudgetFrame.encode(SMALL);
        int before = reads.get();
        channel.writeInbound(Unpooled.wrappedBuffer(frame, 0, 3));
        assertThat(reads.get()).as("asked again for the rest").isGreaterThan(before);
        channel.writeInbound(Unpooled.wrappedBuffer(frame, 3, frame.length - 3));
        assertThat(handshake.encoder().isSuccess()).isTrue();
        channel.finishAndReleaseAll();
    }

    @Test
    void aPeerWithoutTheHandshakeFailsTheChannelWithATypedError() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ReceiverBudgetHandshake handshake = AdaptiveCompression.addNegotiating(channel.pipeline(), GREEDY,
                Runnable::run, ReceiverBudget.defaults());
        Errors errors = new Errors();
        channel.pipeline().addLast(errors);
        ChannelFuture write = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
        byte[] streamHeader = new byte[16];
        FrameFormat.writeStreamHeader(streamHeader, 0, 7);
        channel.writeInbound(Unpooled.wrappedBuffer(streamHeader));
        assertThat(write.cause()).isInstanceOf(BadMagicException.class);
        assertThat(errors.caught).isSameAs(write.cause());
        assertThat(handshake.encoder().cause()).isInstanceOf(BadMagicException.class);
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readInbound()).isNull();
        channel.finishAndReleaseAll();
    }

    @Test
    void noBudgetWithinTheTimeoutFailsTheWaitingWrites() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel();
        ReceiverBudgetHandshake handshake = new ReceiverBudgetHandshake(ReceiverBudget.defaults(), GREEDY,
                Runnable::run, Duration.ofMillis(50));
        Errors errors = new Errors();
        channel.pipeline().addLast(handshake, errors);
        ChannelFuture write = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
        Channels.runUntil(channel, write::isDone);
        assertThat(write.cause()).isInstanceOf(BudgetHandshakeException.class).hasMessageContaining("within 50 ms");
        assertThat(errors.caught).isSameAs(write.cause());
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void aChannelClosedBeforeTheBudgetFailsTheWaitingWrites() {
        EmbeddedChannel channel = new EmbeddedChannel();
        AdaptiveCompression.addNegotiating(channel.pipeline(), GREEDY, Runnable::run, ReceiverBudget.defaults());
        channel.pipeline().addLast(new Errors());
        ChannelFuture write = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
        channel.close();
        assertThat(write.cause()).isInstanceOf(BudgetHandshakeException.class).hasMessageContaining("closed");
        channel.finishAndReleaseAll();
    }

    /** Keeps the exceptions that reach the end of the pipeline, which an embedded channel would rethrow. */
    private static final class Errors extends ChannelInboundHandlerAdapter {
        Throwable caught;

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            caught = cause;
        }
    }

    /** Collects what the decoder passes on until the expected bytes are in, or the channel closes. */
    private static final class Collector extends ChannelInboundHandlerAdapter {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> done;
        private final int expected;

        Collector(CompletableFuture<byte[]> done, int expected) {
            this.done = done;
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channels.appendAndRelease(bytes, (ByteBuf) msg);
            if (bytes.size() >= expected) {
                done.complete(bytes.toByteArray());
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            done.complete(bytes.toByteArray());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
        }
    }
}
