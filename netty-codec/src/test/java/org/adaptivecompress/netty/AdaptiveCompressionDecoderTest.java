package org.adaptivecompress.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.ChecksumMismatchException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.DecompressionLimitException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AdaptiveCompressionDecoderTest {

    /** Offset of the stored length in a block header (docs/FORMAT.md). */
    private static final int STORED_LENGTH_OFFSET = 8;

    private static final AdaptiveCompressionOptions ZSTD = AdaptiveCompressionOptions.builder().controller("fixed:3").build();
    private static final AdaptiveCompressionOptions RAW = AdaptiveCompressionOptions.builder().controller("fixed:0").build();

    @AfterEach
    void noLeaks() throws InterruptedException {
        FailingLeakDetector.assertNoLeaks();
    }

    @ParameterizedTest
    @EnumSource(DataKind.class)
    void decodesWhatAdaptiveOutputStreamWrites(DataKind kind) throws IOException {
        byte[] data = kind.generate(500 * 1024);
        byte[] frames = writeWithStream(data, ZSTD);

        assertThat(AdaptiveCompressionEncoderTest.decodeWithHandler(frames, 777)).isEqualTo(data);
        EmbeddedChannel slicing = new EmbeddedChannel(new AdaptiveCompressionDecoder());
        slicing.writeInbound(Unpooled.wrappedBuffer(frames));
        ByteBuf first = slicing.readInbound();
        assertThat(first.unwrap()).as("a view of the received bytes, not a copy").isNotNull();
        first.release();
        slicing.finishAndReleaseAll();
    }

    @Test
    void passesEachBlockOnAsSoonAsItIsCompleteNeverTheWholeStream() throws IOException {
        byte[] data = DataKind.TEXT.generate(1 << 20);
        byte[] frames = writeWithStream(data, ZSTD);
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder());

        channel.writeInbound(Unpooled.wrappedBuffer(frames));

        List<Integer> blockLengths = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf b = channel.readInbound(); b != null; b = channel.readInbound()) {
            blockLengths.add(b.readableBytes());
            Channels.appendAndRelease(out, b);
        }
        assertThat(blockLengths).hasSize(8).allMatch(n -> n == AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE);
        assertThat(out.toByteArray()).isEqualTo(data);
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void primesAHistoryWithRawBlocksItPassedOnAsSlices() throws IOException {
        // 48 raw blocks (1.5 MB, past the corpus's 1.2 MB period), then zstd:9 primed with them.
        byte[] data = DataKind.TEXT.generate(2 << 20);
        int[] script = new int[64];
        java.util.Arrays.fill(script, 48, 64, 1);
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,zstd:9").blockSize(32 * 1024)
                .controller(() -> new ScriptedController(script)).history(true).build();
        byte[] frames = writeWithStream(data, options);

        assertThat(AdaptiveCompressionEncoderTest.decodeWithHandler(frames, 5000)).isEqualTo(data);
    }

    @Test
    void readsStreamsThatFollowOneAnother() throws IOException {
        byte[] first = DataKind.JSON_EVENTS.generate(200_000);
        byte[] second = DataKind.LOG_LINES.generate(300_000);
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(writeWithStream(first, ZSTD));
        both.writeBytes(writeWithStream(second, ZSTD));

        byte[] decoded = AdaptiveCompressionEncoderTest.decodeWithHandler(both.toByteArray(), 4096);

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(first);
        expected.writeBytes(second);
        assertThat(decoded).isEqualTo(expected.toByteArray());
    }

    @Test
    void corruptPayloadClosesTheChannelWithCorruptFrameExceptionAfterPassingOnTheGoodBlocks() throws IOException {
        byte[] frames = writeWithStream(DataKind.TEXT.generate(400_000), ZSTD);
        // Inside the second block's payload: the first block still goes through.
        int secondBlock = secondBlockOffset(frames);
        frames[secondBlock + FrameFormat.BLOCK_HEADER_LENGTH + 10] ^= 0x40;
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), failure);

        channel.writeInbound(Unpooled.wrappedBuffer(frames));

        assertThat(failure.causes).singleElement().isInstanceOf(CorruptFrameException.class);
        assertThat(channel.isOpen()).isFalse();
        assertThat(failure.decodedBytes()).isEqualTo(AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE);
        channel.finishAndReleaseAll();
    }

    @Test
    void rawBlocksArePassedOnAsSlicesAndStillChecked() throws IOException {
        byte[] data = DataKind.TEXT.generate(400_000);
        byte[] frames = writeWithStream(data, RAW);
        // Fed in odd pieces, so slices are cut from buffers the decoder accumulated.
        assertThat(AdaptiveCompressionEncoderTest.decodeWithHandler(frames, 777)).isEqualTo(data);

        frames[secondBlockOffset(frames) + FrameFormat.BLOCK_HEADER_LENGTH + 10] ^= 0x40;
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), failure);
        channel.writeInbound(Unpooled.wrappedBuffer(frames));

        assertThat(failure.causes).singleElement().isInstanceOf(ChecksumMismatchException.class);
        // The stream stores raw blocks a header short, so that each frame is the block size.
        assertThat(failure.decodedBytes()).isEqualTo(AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE - FrameFormat.BLOCK_HEADER_LENGTH);
        channel.finishAndReleaseAll();
    }

    @Test
    void aFrameLostWholeFailsAtTheNextBlockBeforeItIsPassedOn() throws IOException {
        byte[] frames = writeWithStream(DataKind.TEXT.generate(400_000), ZSTD);
        // Without the second frame every frame left is valid alone; the third's stream offset tells,
        // so a long-lived channel need not wait for an end marker to learn of it.
        byte[] lost = Frames.without(frames, 1);
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), failure);

        channel.writeInbound(Unpooled.wrappedBuffer(lost));

        assertThat(failure.causes).singleElement().isInstanceOf(BlockSequenceException.class);
        assertThat(channel.isOpen()).isFalse();
        assertThat(failure.decodedBytes()).as("only the block before the gap").isEqualTo(AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE);
        channel.finishAndReleaseAll();
    }

    @Test
    void aWindowOverTheDecodersLimitFailsTheChannelAtTheStreamHeader() throws IOException {
        byte[] data = DataKind.TEXT.generate(400_000);
        // zstd:3 keeps the 2 MiB window of `zstd -3`, and its stream declares it.
        byte[] frames = writeWithStream(data, ZSTD.toBuilder().history(true).build());
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(FrameFormat.DEFAULT_MAX_BLOCK_LENGTH,
                AdaptiveInputStream.UNLIMITED, AdaptiveInputStream.UNLIMITED, 1 << 20), failure);

        channel.writeInbound(Unpooled.wrappedBuffer(frames));

        assertThat(failure.causes).singleElement().isInstanceOf(DecompressionLimitException.class);
        assertThat(failure.causes.get(0)).hasMessageContaining("limit of " + (1 << 20) + " bytes");
        assertThat(failure.decodedBytes()).isZero();
        channel.finishAndReleaseAll();

        EmbeddedChannel wide = new EmbeddedChannel(new AdaptiveCompressionDecoder());
        wide.writeInbound(Unpooled.wrappedBuffer(frames));
        assertThat(Channels.drainInbound(wide)).isEqualTo(data);
        wide.finishAndReleaseAll();
    }

    @Test
    void aBlockPastTheCapsFailsTheChannelBeforeItIsDecoded() throws IOException {
        byte[] frames = writeWithStream(new byte[400_000], ZSTD);
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(
                new AdaptiveCompressionDecoder(FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, 1 << 20, 100), failure);

        channel.writeInbound(Unpooled.wrappedBuffer(frames));

        assertThat(failure.causes).singleElement().isInstanceOf(DecompressionLimitException.class);
        assertThat(failure.causes.get(0)).hasMessageContaining("more than this reader's limit of 100 times");
        assertThat(failure.decodedBytes()).isZero();
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void streamCutInsideABlockClosesWithTruncatedStreamException() throws IOException {
        byte[] frames = writeWithStream(DataKind.TEXT.generate(400_000), ZSTD);
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), failure);

        channel.writeInbound(Unpooled.wrappedBuffer(frames, 0, frames.length / 2));
        assertThat(failure.causes).isEmpty();
        channel.close();

        assertThat(failure.causes).singleElement().isInstanceOf(TruncatedStreamException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void streamWithoutItsEndMarkerIsTruncated() throws IOException {
        byte[] frames = writeWithStream(DataKind.TEXT.generate(1000), ZSTD);
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), failure);

        channel.writeInbound(Unpooled.wrappedBuffer(frames, 0, frames.length - FrameFormat.BLOCK_HEADER_LENGTH));
        channel.close();

        assertThat(failure.decodedBytes()).isEqualTo(1000);
        assertThat(failure.causes).singleElement().isInstanceOf(TruncatedStreamException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void blockLargerThanTheLimitIsRejectedBeforeItsPayloadArrives() throws IOException {
        byte[] frames = writeWithStream(DataKind.TEXT.generate(300_000), AdaptiveCompressionOptions.builder()
                .controller("fixed:0").blockSize(256 * 1024).build());
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(128 * 1024), failure);

        // Only the stream header and the first block header: the payload is never needed.
        channel.writeInbound(Unpooled.wrappedBuffer(frames, 0,
                FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH));

        assertThat(failure.causes).singleElement().isInstanceOf(OversizedBlockException.class);
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void inputThatIsNotAStreamIsRejectedWithBadMagic() {
        Failure failure = new Failure();
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), failure);

        channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes()));

        assertThat(failure.causes).singleElement().isInstanceOf(BadMagicException.class);
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void mutatedStreamsFedInPiecesPassOnOnlyVerifiedBytesAndFailTyped() throws IOException {
        byte[] data = DataKind.TEXT.generate(300 * 1024);
        List<byte[]> streams = List.of(writeWithStream(data, ZSTD), writeWithStream(data, RAW),
                writeWithStream(data, AdaptiveCompressionOptions.builder().controller("fixed:1").blockSize(64 * 1024).build()));
        SplittableRandom random = new SplittableRandom(7);
        int failed = 0;
        for (int i = 0; i < 600; i++) {
            byte[] stream = mutate(streams.get(i % streams.size()).clone(), random);
            Failure recorder = new Failure();
            EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder(), recorder);
            for (int at = 0; at < stream.length && channel.isOpen(); ) {
                int piece = Math.min(stream.length - at, 1 + random.nextInt(100_000));
                channel.writeInbound(Unpooled.wrappedBuffer(stream, at, piece));
                at += piece;
            }
            channel.close();
            channel.finishAndReleaseAll();

            byte[] decoded = recorder.decoded.toByteArray();
            assertThat(decoded).as("mutation %d passes on a prefix of the original", i)
                    .isEqualTo(Arrays.copyOf(data, decoded.length));
            assertThat(recorder.causes).as("mutation %d", i)
                    .allSatisfy(cause -> assertThat(cause).isInstanceOf(FrameFormatException.class));
            if (recorder.causes.isEmpty()) {
                assertThat(decoded).as("mutation %d, which decoded without an error", i).hasSize(data.length);
            } else {
                failed++;
            }
        }
        // The few that decode whole touched bytes no decoder reads (the level, a flag zstd ignores).
        assertThat(failed).isGreaterThan(500);
    }

    /** One to four bit flips, byte writes or a truncation, anywhere. */
    private static byte[] mutate(byte[] stream, SplittableRandom random) {
        for (int m = 1 + random.nextInt(4); m > 0 && stream.length > 1; m--) {
            int at = random.nextInt(stream.length);
            switch (random.nextInt(3)) {
                case 0:
                    stream[at] ^= (byte) (1 << random.nextInt(8));
                    break;
                case 1:
                    stream[at] = (byte) random.nextInt(256);
                    break;
                default:
                    stream = Arrays.copyOf(stream, at);
            }
        }
        return stream;
    }

    private static byte[] writeWithStream(byte[] data, AdaptiveCompressionOptions options) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().compression(options).build(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    private static int secondBlockOffset(byte[] frames) {
        int stored = FrameFormat.getInt(frames, FrameFormat.STREAM_HEADER_LENGTH + STORED_LENGTH_OFFSET);
        return FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + stored;
    }

    /** Records exceptions and keeps (and releases) the bytes decoded before them. */
    private static final class Failure extends ChannelInboundHandlerAdapter {
        final List<Throwable> causes = new ArrayList<>();
        final ByteArrayOutputStream decoded = new ByteArrayOutputStream();

        long decodedBytes() {
            return decoded.size();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                buf.readBytes(decoded, buf.readableBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                buf.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            causes.add(cause);
        }

        @Override
        public String toString() {
            return Arrays.toString(causes.toArray());
        }
    }
}
