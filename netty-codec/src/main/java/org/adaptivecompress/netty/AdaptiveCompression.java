package org.adaptivecompress.netty;

import io.netty.channel.ChannelPipeline;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveInputStream;

/**
 * The one-line way to compress a channel both ways: adds an {@link AdaptiveCompressionDecoder}
 * and an {@link AdaptiveCompressionEncoder} at the end of a pipeline, under the names
 * {@value #DECODER_NAME} and {@value #ENCODER_NAME}. Add it on both peers, after any TLS or
 * traffic-shaping handler and before the handlers that read and write your data.
 */
public final class AdaptiveCompression {

    /** The decoder's name in the pipeline. */
    public static final String DECODER_NAME = "adaptiveDecoder";
    /** The receiver-budget handshake's name in the pipeline, until the handshake is over. */
    public static final String HANDSHAKE_NAME = "adaptiveBudgetHandshake";
    /** The encoder's name in the pipeline. */
    public static final String ENCODER_NAME = "adaptiveEncoder";

    private AdaptiveCompression() {}

    /** Adds both handlers with default options, compressing on the shared default executor. */
    public static AdaptiveCompressionEncoder addTo(ChannelPipeline pipeline) {
        return addTo(pipeline, AdaptiveCompressionOptions.defaults());
    }

    /** Adds both handlers, compressing on the shared default executor. */
    public static AdaptiveCompressionEncoder addTo(ChannelPipeline pipeline, AdaptiveCompressionOptions options) {
        return addTo(pipeline, options, CompressionExecutors.shared());
    }

    /**
     * Adds both handlers; the decoder accepts blocks of up to the larger of
     * {@link FrameFormat#DEFAULT_MAX_BLOCK_LENGTH} and the options' longest block, and history
     * windows of up to the larger of 8 MiB and the options' window: a peer with the same options
     * is read.
     *
     * @return the encoder, whose {@link AdaptiveCompressionEncoder#statistics()} tell which rungs it chose
     */
    public static AdaptiveCompressionEncoder addTo(ChannelPipeline pipeline, AdaptiveCompressionOptions options,
            Executor executor) {
        Objects.requireNonNull(pipeline, "pipeline is null");
        AdaptiveCompressionEncoder encoder = new AdaptiveCompressionEncoder(options, executor);
        pipeline.addLast(DECODER_NAME, new AdaptiveCompressionDecoder(
                Math.max(FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, options.maxBlockSize()), AdaptiveInputStream.UNLIMITED,
                AdaptiveInputStream.UNLIMITED, Math.max(1 << FrameFormat.DEFAULT_MAX_WINDOW_LOG, options.historyWindow())));
        pipeline.addLast(ENCODER_NAME, encoder);
        return encoder;
    }

    /**
     * Adds both handlers with a receiver-budget handshake: this peer advertises {@code ownBudget}
     * (what its decoder accepts, and enforces) and compresses only inside the budget the peer
     * advertises, so a small receiver is never sent a rung, window or block it cannot afford.
     * Both peers must add their handlers this way. The encoder is made once the peer's budget
     * has arrived (see {@link ReceiverBudgetHandshake}); writes made before then wait for it.
     * The handshake gives up after {@link ReceiverBudgetHandshake#DEFAULT_TIMEOUT}.
     *
     * @return the handshake, whose {@link ReceiverBudgetHandshake#encoder()} completes with the encoder
     */
    public static ReceiverBudgetHandshake addNegotiating(ChannelPipeline pipeline, AdaptiveCompressionOptions options,
            Executor executor, ReceiverBudget ownBudget) {
        Objects.requireNonNull(pipeline, "pipeline is null");
        ReceiverBudgetHandshake handshake = new ReceiverBudgetHandshake(ownBudget, options, executor,
                ReceiverBudgetHandshake.DEFAULT_TIMEOUT);
        pipeline.addLast(HANDSHAKE_NAME, handshake);
        pipeline.addLast(DECODER_NAME, new AdaptiveCompressionDecoder(ownBudget, AdaptiveInputStream.UNLIMITED,
                AdaptiveInputStream.UNLIMITED));
        return handshake;
    }
}
