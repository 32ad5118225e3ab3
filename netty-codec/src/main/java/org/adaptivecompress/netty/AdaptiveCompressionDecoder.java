package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.stream.AdaptiveInputStream;

/**
 * Decodes the adaptive-compress frame format (what {@link AdaptiveCompressionEncoder} or
 * {@code AdaptiveOutputStream} writes) and passes each block's bytes down the pipeline as one
 * {@link ByteBuf} as soon as the block is complete and verified.
 *
 * <p>It never collects more than one frame: each block header is parsed and checked against
 * {@code maxBlockLength} as soon as its header is in, before anything is allocated for the
 * payload, so a peer cannot make it buffer or allocate more than one block's worth (the lesson
 * of CVE-2025-58057). Several streams may follow one another on a channel.
 *
 * <p>On corrupt, oversized or truncated input (including a channel that closes in the middle of
 * a stream) it fires {@code exceptionCaught} with the core's typed exception (a
 * {@link FrameFormatException}: {@code CorruptFrameException}, {@code ChecksumMismatchException},
 * {@link OversizedBlockException}, {@link TruncatedStreamException}, ...), closes the channel and
 * discards whatever else arrives. The blocks decoded before the bad one have been passed on. A
 * {@code RuntimeException} from a codec on bad input is reported the same way, as a
 * {@code CorruptFrameException} whose cause it is.
 *
 * <p>Each {@link ByteBuf} passed on belongs to the next handler, which must release it. A block
 * stored raw is passed on as a retained slice of the received bytes, without a copy, as
 * Netty's own frame decoders do.
 * One instance per channel.
 */
public final class AdaptiveCompressionDecoder extends ByteToMessageDecoder {

    private final BlockDecoder blockDecoder = new BlockDecoder();
    private final FrameParser parser;
    private BlockHeader header;
    private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
    private byte[] staging = new byte[0];

    private boolean headerParsed;
    private boolean failed;
    private long position;
    private long blockPosition;

    /** A decoder that accepts blocks of up to {@link FrameFormat#DEFAULT_MAX_BLOCK_LENGTH} bytes. */
    public AdaptiveCompressionDecoder() {
        this(FrameFormat.DEFAULT_MAX_BLOCK_LENGTH);
    }

    /**
     * A decoder that rejects, with an {@link OversizedBlockException}, any block longer than
     * {@code maxBlockLength} bytes, compressed or not (at most
     * {@link FrameFormat#MAX_BLOCK_LENGTH_LIMIT}). It must be at least the encoder's block size.
     */
    public AdaptiveCompressionDecoder(int maxBlockLength) {
        this(maxBlockLength, AdaptiveInputStream.UNLIMITED, AdaptiveInputStream.UNLIMITED);
    }

    /**
     * A decoder with {@code maxBlockLength} as above that also fails the channel with a
     * {@link org.adaptivecompress.format.DecompressionLimitException}, before decoding, on a
     * block that takes its stream past {@code maxStreamBytes} or declares more than
     * {@code maxExpansionRatio} times its payload's length: the caps for a peer you do not trust.
     * {@link AdaptiveInputStream#UNLIMITED} for none.
     */
    public AdaptiveCompressionDecoder(int maxBlockLength, long maxStreamBytes, long maxExpansionRatio) {
        this(maxBlockLength, maxStreamBytes, maxExpansionRatio, 1 << FrameFormat.DEFAULT_MAX_WINDOW_LOG);
    }

    /**
     * A decoder with the limits above that also fails the channel with a
     * {@link org.adaptivecompress.format.DecompressionLimitException}, at the stream header, on a
     * stream whose histories declare a window over {@code maxWindow} bytes (a power of two from
     * 1 MiB to 64 MiB; 8 MiB in the other constructors): the decoder holds up to a window for
     * each history the peer opens.
     */
    public AdaptiveCompressionDecoder(int maxBlockLength, long maxStreamBytes, long maxExpansionRatio, int maxWindow) {
        this.parser = new FrameParser(blockDecoder, maxBlockLength).limit(maxStreamBytes, maxExpansionRatio)
                .maxWindowLog(FrameFormat.checkWindowSize(maxWindow));
    }

    /**
     * A decoder that refuses what {@code budget} does not accept, with a
     * {@link org.adaptivecompress.format.DecompressionLimitException} (or an
     * {@link OversizedBlockException} for a longer block) before decoding: the reader's side of
     * the budget {@link ReceiverBudgetHandshake} advertises for it. Stream bytes and expansion
     * are capped as in {@link #AdaptiveCompressionDecoder(int, long, long)}.
     */
    public AdaptiveCompressionDecoder(ReceiverBudget budget, long maxStreamBytes, long maxExpansionRatio) {
        this(budget.maxBlockLength(), maxStreamBytes, maxExpansionRatio);
        parser.accept(budget);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            decodeStep(ctx, in, out);
        } catch (FrameFormatException e) {
            fail(ctx, in, e);
        } catch (RuntimeException e) {
            // A codec that fails on input in a way it does not type: the stream is as unusable as
            // after a corrupt frame, and escaping, the same bytes would be tried again next read.
            fail(ctx, in, new CorruptFrameException("input at stream offset " + position
                    + " does not decode: " + e, e));
        }
    }

    /**
     * Consumes one stream header, block header or block payload if it is all there. One block
     * per call, so {@link ByteToMessageDecoder} passes each block on before decoding the next.
     */
    private void decodeStep(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws FrameFormatException {
        if (!parser.inStream()) {
            if (in.readableBytes() >= FrameFormat.STREAM_HEADER_LENGTH) {
                in.getBytes(in.readerIndex(), headerBytes, 0, FrameFormat.STREAM_HEADER_LENGTH);
                parser.streamHeader(headerBytes, 0);
                consume(in, FrameFormat.STREAM_HEADER_LENGTH);
            }
            return;
        }
        if (!headerParsed) {
            int length = parser.blockHeaderLength();
            if (in.readableBytes() >= length) {
                in.getBytes(in.readerIndex(), headerBytes, 0, length);
                header = parser.blockHeader(headerBytes, 0, position);
                blockPosition = position;
                consume(in, length);
                headerParsed = !header.isEndOfStream();
            }
            return;
        }
        int stored = header.storedLength();
        if (in.readableBytes() < stored) {
            return;
        }
        ByteBuf block = header.codec() == CodecType.RAW ? rawBlock(in, stored) : decodedBlock(ctx, in, stored);
        position += stored;
        headerParsed = false;
        out.add(block);
    }

    /** Stored as is: checked in place and passed on as a slice of what arrived, no copy. */
    private ByteBuf rawBlock(ByteBuf in, int stored) throws FrameFormatException {
        blockDecoder.verify(header, in.nioBuffer(in.readerIndex(), stored), blockPosition);
        return in.readRetainedSlice(stored);
    }

    /** Compressed: decoded into a new heap buffer of the block's length. */
    private ByteBuf decodedBlock(ChannelHandlerContext ctx, ByteBuf in, int stored) throws FrameFormatException {
        byte[] src;
        int srcOffset;
        if (in.hasArray()) {
            src = in.array();
            srcOffset = in.arrayOffset() + in.readerIndex();
        } else {
            if (staging.length < stored) {
                staging = new byte[stored];
            }
            in.getBytes(in.readerIndex(), staging, 0, stored);
            src = staging;
            srcOffset = 0;
        }
        int length = header.uncompressedLength();
        ByteBuf block = ctx.alloc().heapBuffer(length, length);
        try {
            blockDecoder.decode(header, src, srcOffset, block.array(), block.arrayOffset() + block.writerIndex(),
                    blockPosition);
        } catch (FrameFormatException | RuntimeException e) {
            block.release();
            throw e;
        }
        block.writerIndex(block.writerIndex() + length);
        in.skipBytes(stored);
        return block;
    }

    /** At channel close: whatever is left must be a complete stream, or the stream was cut. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
        boolean inStream = parser.inStream();
        if (!failed && (inStream || in.isReadable())) {
            fail(ctx, in, new TruncatedStreamException("channel closed at offset " + (position + in.readableBytes())
                    + (inStream ? " inside a stream, before its end-of-stream marker" : " inside a stream header")));
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        blockDecoder.close();
    }

    private void consume(ByteBuf in, int n) {
        in.skipBytes(n);
        position += n;
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, FrameFormatException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
        ctx.fireExceptionCaught(e);
        ctx.close();
    }
}
