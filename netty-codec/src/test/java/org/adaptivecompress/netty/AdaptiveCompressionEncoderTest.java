package org.adaptivecompress.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.adaptivecompress.engine.CompressionOptions;
import org.adaptivecompress.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class AdaptiveCompressionEncoderTest {

    /** A fixed compressing rung (zstd:3), so the round trips go through a real codec, not raw copies. */
    private static final CompressionOptions ZSTD = CompressionOptions.builder().controller("fixed:3").build();

    @AfterEach
    void noLeaks() throws InterruptedException {
        FailingLeakDetector.assertNoLeaks();
    }

    @ParameterizedTest
    @EnumSource(DataKind.class)
    void everyDataKindRoundTripsThroughTheDecoderAndTheInputStream(DataKind kind) throws Exception {
        byte[] data = kind.generate(600 * 1024);
        byte[] frames = encode(data, ZSTD, 64 * 1024 + 7);

        assertThat(decodeWithHandler(frames, 1000)).isEqualTo(data);
        assertThat(AdaptiveInputStream.builder().build(new ByteArrayInputStream(frames)).readAllBytes())
                .isEqualTo(data);
    }

    @Test
    void withHistoriesBlocksMatchEarlierBlocksAndDecodeInOrder() throws Exception {
        // The text corpus repeats every 1.2 MB: only zstd histories see it.
        byte[] data = DataKind.TEXT.generate(3 << 20);
        byte[] alone = encode(data, ZSTD, 100_000);
        byte[] withHistory = encode(data, ZSTD.toBuilder().history(true).build(), 100_000);

        assertThat(FrameFormat.usesHistory(withHistory, 0)).isTrue();
        assertThat(withHistory.length).isLessThan(alone.length / 2);
        assertThat(decodeWithHandler(withHistory, 1000)).isEqualTo(data);
        assertThat(AdaptiveInputStream.builder().build(new ByteArrayInputStream(withHistory)).readAllBytes())
                .isEqualTo(data);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 255, 4096, 131_071, 131_072, 131_073, 1 << 20, 4 << 20})
    void writesOfOneByteToFourMebibytesRoundTripAndCompleteTheirPromise(int size) throws Exception {
        byte[] data = DataKind.TEXT.generate(size);
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(ZSTD));
        ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(data));
        Channels.runUntil(channel, written::isDone);
        assertThat(written.isSuccess()).isTrue();
        ChannelFuture closed = channel.close();
        Channels.runUntil(channel, closed::isDone);

        byte[] frames = Channels.drainOutbound(channel);
        assertThat(AdaptiveInputStream.builder().build(new ByteArrayInputStream(frames)).readAllBytes())
                .isEqualTo(data);
    }

    @Test
    void promiseCompletesOnlyOnceTheFrameHasReallyBeenWritten() throws Exception {
        HoldWrites hold = new HoldWrites();
        EmbeddedChannel channel = new EmbeddedChannel(hold, new AdaptiveCompressionEncoder(ZSTD));
        byte[] data = DataKind.TEXT.generate(1000);

        ChannelFuture unflushed = channel.write(Unpooled.wrappedBuffer(data));
        channel.runPendingTasks();
        assertThat(unflushed.isDone()).as("a buffered write must not complete").isFalse();

        channel.flush();
        Channels.runUntil(channel, () -> hold.held.size() == 1);
        assertThat(unflushed.isDone()).as("a frame held below the encoder is not written yet").isFalse();

        hold.release();
        Channels.runUntil(channel, unflushed::isDone);
        assertThat(unflushed.isSuccess()).isTrue();
        assertThat(Channels.drainOutbound(channel)).isNotEmpty();
        channel.finishAndReleaseAll();
    }

    @Test
    void aFailedFrameWriteFailsThePromisesOfItsBytes() throws Exception {
        HoldWrites hold = new HoldWrites();
        EmbeddedChannel channel = new EmbeddedChannel(hold, new AdaptiveCompressionEncoder(ZSTD));
        ChannelFuture first = channel.write(Unpooled.wrappedBuffer(DataKind.TEXT.generate(500)));
        ChannelFuture second = channel.writeAndFlush(Unpooled.wrappedBuffer(DataKind.TEXT.generate(500)));
        Channels.runUntil(channel, () -> hold.held.size() == 1);

        IOException cause = new IOException("link down");
        hold.fail(cause);
        assertThat(first.cause()).isSameAs(cause);
        assertThat(second.cause()).isSameAs(cause);
        channel.finishAndReleaseAll();
    }

    @Test
    void removingTheEncoderMidStreamReleasesEveryBufferAndFailsPendingWrites() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        AdaptiveCompressionEncoder encoder = new AdaptiveCompressionEncoder(ZSTD, executor);
        EmbeddedChannel channel = new EmbeddedChannel();
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        channel.config().setAllocator(alloc);
        channel.pipeline().addLast(encoder);
        ByteBuf big = Unpooled.wrappedBuffer(DataKind.TEXT.generate(3 * 128 * 1024 + 5000));
        ByteBuf small = Unpooled.directBuffer().writeBytes(DataKind.TEXT.generate(100));
        ChannelFuture pendingBig = channel.write(big);
        ChannelFuture pendingSmall = channel.write(small);

        channel.pipeline().remove(encoder);
        // Let the block on the executor come back: the encoder releases its frame then.
        executor.shutdown();
        assertThat(executor.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        channel.runPendingTasks();

        assertThat(big.refCnt()).isZero();
        assertThat(small.refCnt()).isZero();
        assertThat(pendingBig.cause()).hasMessageContaining("removed");
        assertThat(pendingSmall.cause()).hasMessageContaining("removed");
        // Frames written before the removal belong to the channel, which releases them on close.
        channel.finishAndReleaseAll();
        assertThat(alloc.metric().usedHeapMemory()).as("bytes of blocks and frames still allocated").isZero();
    }

    @Test
    void compressesEveryBlockOnTheGivenExecutorAndNeverOnTheEventLoop() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Set<Thread> compressingThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger tasks = new AtomicInteger();
        Executor recording = task -> {
            tasks.incrementAndGet();
            pool.execute(() -> {
                compressingThreads.add(Thread.currentThread());
                task.run();
            });
        };
        AdaptiveCompressionEncoder encoder = new AdaptiveCompressionEncoder(ZSTD, recording);
        EmbeddedChannel channel = new EmbeddedChannel(encoder);

        ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(DataKind.TEXT.generate(1 << 20)));
        Channels.runUntil(channel, written::isDone);

        assertThat(written.isSuccess()).isTrue();
        assertThat(tasks.get()).isEqualTo(8).isEqualTo(encoder.statistics().totalBlocks());
        assertThat(compressingThreads).doesNotContain(Thread.currentThread()).hasSize(1);
        Channels.drainOutbound(channel);
        channel.finishAndReleaseAll();
        pool.shutdown();
    }

    @Test
    void emptyWritesCompleteInOrderWithoutAFrame() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(ZSTD));
        ChannelFuture empty = channel.writeAndFlush(Unpooled.EMPTY_BUFFER);
        Channels.runUntil(channel, empty::isDone);
        assertThat(empty.isSuccess()).isTrue();
        ChannelFuture closed = channel.close();
        Channels.runUntil(channel, closed::isDone);
        byte[] frames = Channels.drainOutbound(channel);
        assertThat(AdaptiveInputStream.builder().build(new ByteArrayInputStream(frames)).readAllBytes()).isEmpty();
    }

    /** Writes {@code data} in chunks through an encoder, closes it, and returns the frames. */
    static byte[] encode(byte[] data, CompressionOptions options, int chunk) throws InterruptedException {
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(options));
        for (int i = 0; i < data.length; i += chunk) {
            channel.write(Unpooled.wrappedBuffer(data, i, Math.min(chunk, data.length - i)));
        }
        channel.flush();
        ChannelFuture closed = channel.close();
        Channels.runUntil(channel, closed::isDone);
        return Channels.drainOutbound(channel);
    }

    /** Feeds {@code frames} to a decoder in pieces of {@code piece} bytes and returns what it passed on. */
    static byte[] decodeWithHandler(byte[] frames, int piece) {
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder());
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < frames.length; i += piece) {
            channel.writeInbound(Unpooled.copiedBuffer(frames, i, Math.min(piece, frames.length - i)));
            out.writeBytes(Channels.drainInbound(channel));
        }
        channel.checkException();
        assertThat(channel.finish()).isFalse();
        return out.toByteArray();
    }

    /** Holds every write below the encoder, as a slow socket would, until told to let go. */
    private static final class HoldWrites extends ChannelOutboundHandlerAdapter {
        final List<Object[]> held = new ArrayList<>();
        private ChannelHandlerContext ctx;
        private boolean holding = true;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (!holding || msg instanceof ByteBuf && !((ByteBuf) msg).isReadable()) {
                ctx.write(msg, promise);
            } else {
                held.add(new Object[] {msg, promise});
            }
        }

        /** Lets the held writes and every later one through. */
        void release() {
            holding = false;
            for (Object[] w : held) {
                ctx.write(w[0], (ChannelPromise) w[1]);
            }
            held.clear();
            ctx.flush();
        }

        /** Fails the held writes and lets every later one through. */
        void fail(Throwable cause) {
            holding = false;
            for (Object[] w : held) {
                ((ByteBuf) w[0]).release();
                ((ChannelPromise) w[1]).setFailure(cause);
            }
            held.clear();
        }
    }
}
