package org.adaptivecompress.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.UnsupportedMessageTypeException;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.metrics.StatisticsGroup;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.netty.LoopbackLink.Transport;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class AdaptiveCompressionEncoderTest {

    /** A fixed compressing rung (zstd:3), so the round trips go through a real codec, not raw copies. */
    private static final AdaptiveCompressionOptions ZSTD = AdaptiveCompressionOptions.builder().controller("fixed:3").build();
    private static final int BLOCK = AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE;

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
        assertThat(closeAndDecode(channel)).isEqualTo(data);
    }

    /**
     * Blocks take the length the controller chose after the last frame, from the block size to
     * the longest: each write below is flushed and waited for, so each decision comes before the
     * next block opens, and a write of the length asked fills exactly one block.
     */
    @Test
    void blocksTakeTheLengthTheControllerChose() throws Exception {
        ScriptedController controller = new ScriptedController(3, 2).withBlockLengths(-1, 0, 300_000);
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().controller(() -> controller)
                .maxBlockSize(1 << 20).build();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(options));
        List<Integer> asked = List.of(1 << 20, BLOCK, 300_000, 1 << 20, BLOCK, 300_000);
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        for (int length : asked) {
            byte[] block = DataKind.MIXED.generate(length);
            data.writeBytes(block);
            ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(block));
            Channels.runUntil(channel, written::isDone);
            assertThat(written.isSuccess()).isTrue();
        }

        assertThat(closeAndDecode(channel)).isEqualTo(data.toByteArray());
        assertThat(controller.observations()).extracting(o -> o.uncompressedLength()).isEqualTo(asked);
    }

    /**
     * A channel counts in its options' statistics group until it closes, however it closes:
     * a server's group must not hold every channel it ever had.
     */
    @Test
    void aChannelLeavesItsStatisticsGroupWhenItClosesEvenMidBlock() throws Exception {
        StatisticsGroup group = new StatisticsGroup();
        AdaptiveCompressionOptions options = ZSTD.toBuilder().statisticsGroup(group).build();
        EmbeddedChannel idle = new EmbeddedChannel(new AdaptiveCompressionEncoder(options));
        EmbeddedChannel busy = new EmbeddedChannel(new AdaptiveCompressionEncoder(options));
        EmbeddedChannel finished = new EmbeddedChannel(new AdaptiveCompressionEncoder(options));
        byte[] data = DataKind.TEXT.generate(4 << 20);
        ChannelFuture written = finished.writeAndFlush(Unpooled.wrappedBuffer(data));
        Channels.runUntil(finished, written::isDone);
        assertThat(group.openStreams()).isEqualTo(3);

        busy.writeAndFlush(Unpooled.wrappedBuffer(data)); // closed while its blocks compress
        idle.close();
        busy.close();
        assertThat(closeAndDecode(finished)).isEqualTo(data);
        Channels.runUntil(busy, () -> group.openStreams() == 0);

        assertThat(group.statistics().totalBytesIn()).isGreaterThanOrEqualTo(data.length);
        Channels.drainOutbound(busy);
        Channels.drainOutbound(idle); // an empty stream's header and end marker
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
    void aLostFrameFailsEveryLaterWriteAndClosesTheChannelSoThePeerSeesATruncatedStream() throws Exception {
        byte[] data = DataKind.TEXT.generate(6 * BLOCK);
        IOException lost = new IOException("third frame lost");
        try (LoopbackLink.Connection link = LoopbackLink.connect(Transport.NIO, AdaptiveCompressionDecoder::new,
                data.length, true, new FailNthWrite(3, lost), new AdaptiveCompressionEncoder(ZSTD))) {
            // One block per write, so write i's promise is frame i's.
            List<ChannelFuture> writes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                writes.add(link.client.writeAndFlush(Unpooled.wrappedBuffer(data, i * BLOCK, BLOCK)));
            }
            for (ChannelFuture w : writes) {
                assertThat(w.await(1, TimeUnit.MINUTES)).as("a write completes").isTrue();
            }

            assertThat(writes.get(2).cause()).isSameAs(lost);
            assertThat(writes.subList(3, 6)).as("writes behind the lost frame")
                    .allSatisfy(w -> assertThat(w.isSuccess()).isFalse());
            assertThat(link.client.closeFuture().await(1, TimeUnit.MINUTES)).as("client channel closed").isTrue();
            assertThatThrownBy(() -> link.sink.done.get(1, TimeUnit.MINUTES))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TruncatedStreamException.class);
            // What the peer passed on is whole blocks, in order, none past the lost one.
            byte[] received = link.sink.receivedSoFar();
            assertThat(received.length).isLessThanOrEqualTo(2 * BLOCK);
            assertThat(received).isEqualTo(Arrays.copyOf(data, received.length));
        }
    }

    @Test
    void closeFailsWithTheCauseWhenTheEndOfStreamMarkerCannotBeWritten() throws Exception {
        IOException lost = new IOException("marker lost");
        EmbeddedChannel channel = new EmbeddedChannel(new FailNthWrite(1, lost), new AdaptiveCompressionEncoder(ZSTD));

        ChannelFuture closed = channel.close();
        Channels.runUntil(channel, closed::isDone);

        assertThat(closed.cause()).isSameAs(lost);
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void aBlockWhoseEventLoopIsGoneFailsItsWritesInsteadOfLeavingThemOpen() throws Exception {
        GatedExecutor compression = new GatedExecutor();
        // A handler executor of its own, which can go away while the channel stays.
        DefaultEventExecutorGroup encoderLoop = new DefaultEventExecutorGroup(1);
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast(encoderLoop, new AdaptiveCompressionEncoder(ZSTD, compression));

        try {
            ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(DataKind.TEXT.generate(1000)));
            // Shutting down runs the queued write and flush first, so the block is on the executor.
            assertThat(encoderLoop.shutdownGracefully(0, 0, TimeUnit.SECONDS).await(1, TimeUnit.MINUTES)).isTrue();
            compression.open();
            Channels.runUntil(channel, written::isDone);

            assertThat(written.cause()).isInstanceOf(RejectedExecutionException.class);
        } finally {
            compression.shutdown();
        }
    }

    /**
     * {@code shutdownNow()} drops the block queued on the executor: the encoder sees the executor
     * shut down, fails the writes and the close instead of leaving them pending, and releases
     * every buffer it held.
     */
    @Test
    void anExecutorShutDownWithTheBlockQueuedFailsTheStreamInsteadOfHanging() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch busy = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                busy.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        EmbeddedChannel channel = new EmbeddedChannel();
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        channel.config().setAllocator(alloc);
        channel.pipeline().addLast(new AdaptiveCompressionEncoder(ZSTD, pool));
        ChannelFuture queued = channel.writeAndFlush(Unpooled.wrappedBuffer(DataKind.TEXT.generate(1000)));
        ChannelFuture later = channel.write(Unpooled.wrappedBuffer(DataKind.TEXT.generate(BLOCK + 10)));
        // Through the pipeline: EmbeddedChannel.close() would also cancel the encoder's scheduled checks.
        ChannelFuture closed = channel.pipeline().close();

        assertThat(pool.shutdownNow()).hasSize(1);
        Channels.runUntil(channel, () -> queued.isDone() && later.isDone() && closed.isDone());
        assertThatThrownBy(channel::checkException).as("fired as exceptionCaught")
                .isInstanceOf(RejectedExecutionException.class);

        assertThat(queued.cause()).isInstanceOf(RejectedExecutionException.class).hasMessageContaining("shut down");
        assertThat(later.cause()).isSameAs(queued.cause());
        assertThat(closed.cause()).isSameAs(queued.cause());
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
        assertThat(alloc.metric().usedHeapMemory()).as("bytes of blocks and frames still allocated").isZero();
    }

    /** An executor that takes the block and never runs it: the stream fails after the start timeout. */
    @Test
    void anExecutorThatDiscardsTheBlockFailsTheStreamAfterTheStartTimeout() throws Exception {
        Executor discarding = task -> { };
        EmbeddedChannel channel = new EmbeddedChannel();
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        channel.config().setAllocator(alloc);
        channel.pipeline().addLast(new AdaptiveCompressionEncoder(ZSTD, discarding, Duration.ofMillis(200)));
        ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(DataKind.TEXT.generate(1000)));

        Channels.runUntil(channel, written::isDone);
        assertThatThrownBy(channel::checkException).as("fired as exceptionCaught")
                .isInstanceOf(RejectedExecutionException.class);

        assertThat(written.cause()).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("did not start it within");
        assertThat(channel.isOpen()).isFalse();
        assertThat(channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[10])).cause())
                .isInstanceOf(ClosedChannelException.class);
        channel.finishAndReleaseAll();
        assertThat(alloc.metric().usedHeapMemory()).as("bytes of blocks and frames still allocated").isZero();
    }

    /** Removing the encoder while its block waits on an executor that never runs it frees the block at once. */
    @Test
    void removingTheEncoderReleasesABlockTheExecutorNeverStarted() throws Exception {
        AdaptiveCompressionEncoder encoder = new AdaptiveCompressionEncoder(ZSTD, task -> { });
        EmbeddedChannel channel = new EmbeddedChannel();
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        channel.config().setAllocator(alloc);
        channel.pipeline().addLast(encoder);
        ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(DataKind.TEXT.generate(1000)));

        channel.pipeline().remove(encoder);

        assertThat(written.cause()).hasMessageContaining("removed");
        assertThat(alloc.metric().usedHeapMemory()).as("bytes of the block still allocated").isZero();
        channel.finishAndReleaseAll();
    }

    @Test
    void startTimeoutMustBePositive() {
        assertThatThrownBy(() -> new AdaptiveCompressionEncoder(ZSTD, Runnable::run, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("startTimeout");
    }

    @Test
    void turnsTheChannelUnwritableWhileItHoldsMoreThanTheHighWaterMarkUncompressed() throws Exception {
        GatedExecutor compression = new GatedExecutor();
        WritabilityEvents events = new WritabilityEvents();
        byte[] data = DataKind.TEXT.generate(4 * BLOCK);
        try (LoopbackLink.Connection link = LoopbackLink.connect(Transport.NIO, AdaptiveCompressionDecoder::new,
                data.length, true, new AdaptiveCompressionEncoder(ZSTD, compression), events)) {
            try {
                assertWritabilityFollowsHeldBytes(link, compression, events, data);
            } finally {
                // Before the link closes: close() waits for the blocks the gate holds.
                compression.open();
            }
        } finally {
            compression.shutdown();
        }
    }

    /** Writes past the high water mark while the gate holds compression back, then opens it. */
    private static void assertWritabilityFollowsHeldBytes(LoopbackLink.Connection link, GatedExecutor compression,
            WritabilityEvents events, byte[] data) throws Exception {
        Channel client = link.client;
        assertThat(data.length).isGreaterThan(client.config().getWriteBufferHighWaterMark());
        List<ChannelFuture> writes = new ArrayList<>();
        for (int i = 0; i < data.length; i += BLOCK) {
            writes.add(client.writeAndFlush(Unpooled.wrappedBuffer(data, i, BLOCK)));
        }
        runOnEventLoop(client); // behind the writes: the encoder has them all
        assertThat(client.isWritable()).as("writable while every block waits for the compressor").isFalse();
        runOnEventLoop(client); // behind the writability event the outbound buffer posted
        assertThat(events.seen).startsWith(false);

        compression.open();
        for (ChannelFuture w : writes) {
            assertThat(w.await(1, TimeUnit.MINUTES)).as("a write completes").isTrue();
            assertThat(w.isSuccess()).isTrue();
        }
        assertThat(link.sink.done.get(1, TimeUnit.MINUTES)).isEqualTo(data);
        runOnEventLoop(client);
        assertThat(client.isWritable()).isTrue();
        assertThat(events.seen).endsWith(true);
    }

    @Test
    void aByteBufHolderIsCompressedAsItsContentAndReleased() throws Exception {
        byte[] data = DataKind.TEXT.generate(5000);
        ByteBufHolder holder = new DefaultByteBufHolder(Unpooled.wrappedBuffer(data));
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(ZSTD));

        ChannelFuture written = channel.writeAndFlush(holder);
        Channels.runUntil(channel, written::isDone);

        assertThat(written.isSuccess()).isTrue();
        assertThat(holder.refCnt()).isZero();
        assertThat(closeAndDecode(channel)).isEqualTo(data);
    }

    @Test
    void anyOtherMessageIsReleasedAndRefusedRatherThanOvertakingBufferedBytes(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("region"), new byte[100]);
        byte[] data = DataKind.TEXT.generate(1000);
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(ZSTD));

        ChannelFuture buffered = channel.write(Unpooled.wrappedBuffer(data));
        FileRegion region = new DefaultFileRegion(file.toFile(), 0, 100);
        ChannelFuture refused = channel.writeAndFlush(region);
        Channels.runUntil(channel, () -> refused.isDone() && buffered.isDone());

        assertThat(refused.cause()).isInstanceOf(UnsupportedMessageTypeException.class);
        assertThat(region.refCnt()).isZero();
        assertThat(buffered.isSuccess()).isTrue();
        assertThat(closeAndDecode(channel)).isEqualTo(data);
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
    void theOptionsListenerIsToldEveryBlocksDecisionInStreamOrder() throws Exception {
        List<String> decisions = new CopyOnWriteArrayList<>();
        AdaptiveCompressionOptions options = ZSTD.toBuilder()
                .listener((observation, decision) -> decisions.add(observation.blockNumber() + ":" + decision.rung()
                        + ":" + decision.reason()))
                .build();
        byte[] data = DataKind.JSON_EVENTS.generate(5 * BLOCK + 100);

        byte[] frames = encode(data, options, 50_000);

        assertThat(decodeWithHandler(frames, 4096)).isEqualTo(data);
        assertThat(decisions).containsExactly("0:3:FIXED", "1:3:FIXED", "2:3:FIXED", "3:3:FIXED", "4:3:FIXED",
                "5:3:FIXED");
    }

    @Test
    void emptyWritesCompleteInOrderWithoutAFrame() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionEncoder(ZSTD));
        ChannelFuture empty = channel.writeAndFlush(Unpooled.EMPTY_BUFFER);
        Channels.runUntil(channel, empty::isDone);
        assertThat(empty.isSuccess()).isTrue();
        assertThat(closeAndDecode(channel)).isEmpty();
    }

    /** Returns once the tasks the channel's event loop had queued before this call have run. */
    private static void runOnEventLoop(Channel channel) throws InterruptedException {
        assertThat(channel.eventLoop().submit(() -> { }).await(1, TimeUnit.MINUTES)).isTrue();
    }

    /** Writes {@code data} in chunks through an encoder, closes it, and returns the frames. */
    static byte[] encode(byte[] data, AdaptiveCompressionOptions options, int chunk) throws InterruptedException {
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

    /** Below the encoder: fails the promise of the nth non-empty write without passing it on. */
    private static final class FailNthWrite extends ChannelOutboundHandlerAdapter {
        private final int n;
        private final Throwable cause;
        private int writes;

        FailNthWrite(int n, Throwable cause) {
            this.n = n;
            this.cause = cause;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf && ((ByteBuf) msg).isReadable() && ++writes == n) {
                ((ByteBuf) msg).release();
                promise.setFailure(cause);
            } else {
                ctx.write(msg, promise);
            }
        }
    }

    /** Runs compression tasks on a thread of its own, each once {@link #open} has been called. */
    private static final class GatedExecutor implements Executor {
        private final CountDownLatch gate = new CountDownLatch(1);
        private final ExecutorService thread = Executors.newSingleThreadExecutor();

        @Override
        public void execute(Runnable task) {
            thread.execute(() -> {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                task.run();
            });
        }

        void open() {
            gate.countDown();
        }

        void shutdown() throws InterruptedException {
            open();
            thread.shutdown();
            assertThat(thread.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
    }

    /** Records the channel's writability at each {@code channelWritabilityChanged}. */
    private static final class WritabilityEvents extends ChannelInboundHandlerAdapter {
        final List<Boolean> seen = new CopyOnWriteArrayList<>();

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            seen.add(ctx.channel().isWritable());
            ctx.fireChannelWritabilityChanged();
        }
    }

    /** Closes the channel, which ends the stream, and decodes every frame it wrote. */
    private static byte[] closeAndDecode(EmbeddedChannel channel) throws Exception {
        ChannelFuture closed = channel.close();
        Channels.runUntil(channel, closed::isDone);
        byte[] frames = Channels.drainOutbound(channel);
        return AdaptiveInputStream.builder().build(new ByteArrayInputStream(frames)).readAllBytes();
    }
}
