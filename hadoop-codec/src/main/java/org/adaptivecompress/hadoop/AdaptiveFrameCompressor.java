package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.util.Objects;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.Compressor;

/**
 * Hadoop's {@link Compressor} state machine over the core engine: produces one complete stream
 * (stream header, blocks, end-of-stream marker) in core's frame format between
 * {@link #reset()}s, so a {@code CompressorStream} over it writes the same files as the codec.
 *
 * <p>The caller takes every frame as it is made, so there is no FIFO and the rung comes from
 * {@link AdaptiveCodecSettings#COMPRESSOR_CONTROLLER_KEY} (a fixed rung by default).
 * {@link #reinit(Configuration)}, which {@code CodecPool} calls on every lease, applies the
 * configuration's ladder, controller and block size. Each stream gets a fresh engine, hence a
 * fresh salt.
 */
public final class AdaptiveFrameCompressor implements Compressor {

    private AdaptiveCompressionOptions options;
    private AdaptiveCompressor engine;
    private CompressionStatistics lastStatistics;
    private byte[] block;
    private byte[] frame;
    private int blockLength;
    private int framePos;
    private int frameLimit;

    private byte[] input;
    private int inputOffset;
    private int inputLength;

    private boolean headerWritten;
    private boolean finishRequested;
    private boolean endWritten;
    private long bytesRead;
    private long bytesWritten;
    private boolean ended;

    /** A compressor with these settings' {@linkplain AdaptiveCodecSettings#compressorOptions() options}. */
    public AdaptiveFrameCompressor(AdaptiveCodecSettings settings) {
        apply(Objects.requireNonNull(settings, "settings is null"));
    }

    private void apply(AdaptiveCodecSettings newSettings) {
        AdaptiveCompressionOptions newOptions = newSettings.compressorOptions();
        this.options = newOptions;
        if (block == null || block.length != newOptions.blockSize()) {
            block = new byte[newOptions.blockSize()];
            frame = new byte[AdaptiveCompressor.maxFrameLength(newOptions.blockSize())];
        }
    }

    /** The options streams from now on are compressed with. */
    public AdaptiveCompressionOptions options() {
        return options;
    }

    /** Rungs chosen in the current stream, else the last one; {@code null} before any. */
    public CompressionStatistics statistics() {
        return engine != null ? engine.statistics() : lastStatistics;
    }

    @Override
    public void setInput(byte[] b, int off, int len) {
        ensureNotEnded();
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "b is null").length);
        if (finishRequested) {
            throw new IllegalStateException("setInput after finish(): call reset() to start a new stream");
        }
        input = b;
        inputOffset = off;
        inputLength = len;
    }

    /** True once the last input has been taken in and every frame made so far has been handed out. */
    @Override
    public boolean needsInput() {
        return inputLength == 0 && framePos == frameLimit && !finishRequested;
    }

    @Override
    public void setDictionary(byte[] b, int off, int len) {
        throw new UnsupportedOperationException(
                "the adaptive codec has no preset dictionaries: every block must decode on its own");
    }

    @Override
    public long getBytesRead() {
        return bytesRead;
    }

    @Override
    public long getBytesWritten() {
        return bytesWritten;
    }

    @Override
    public void finish() {
        ensureNotEnded();
        finishRequested = true;
    }

    @Override
    public boolean finished() {
        return endWritten && framePos == frameLimit;
    }

    @Override
    public int compress(byte[] b, int off, int len) throws IOException {
        ensureNotEnded();
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "b is null").length);
        while (framePos == frameLimit) {
            if (!makeOutput()) {
                return 0;
            }
        }
        int n = Math.min(len, frameLimit - framePos);
        System.arraycopy(frame, framePos, b, off, n);
        framePos += n;
        bytesWritten += n;
        return n;
    }

    /** Makes the next piece of output (header, frame or end marker); false if there is none to make yet. */
    private boolean makeOutput() {
        if (!headerWritten) {
            engine = new AdaptiveCompressor(options);
            frameLimit = engine.writeStreamHeader(frame, 0);
            framePos = 0;
            headerWritten = true;
            return true;
        }
        int n = Math.min(inputLength, block.length - blockLength);
        if (n > 0) {
            System.arraycopy(input, inputOffset, block, blockLength, n);
            blockLength += n;
            inputOffset += n;
            inputLength -= n;
            bytesRead += n;
        }
        if (blockLength == block.length || (finishRequested && inputLength == 0 && blockLength > 0)) {
            frameLimit = engine.compressBlock(block, 0, blockLength, frame, 0);
            framePos = 0;
            blockLength = 0;
            // Frames leave as soon as they are made: the FIFO is always empty.
            engine.update(PipelineSample.ofFifo(0, 0, bytesWritten));
            return true;
        }
        if (finishRequested && inputLength == 0 && !endWritten) {
            frameLimit = engine.writeEndOfStream(frame, 0);
            framePos = 0;
            endWritten = true;
            return true;
        }
        return false;
    }

    /** Drops any unfinished stream and its input; the next output starts a new stream. */
    @Override
    public void reset() {
        if (engine != null) {
            lastStatistics = engine.statistics();
            engine.close();
            engine = null;
        }
        input = null;
        inputOffset = 0;
        inputLength = 0;
        blockLength = 0;
        framePos = 0;
        frameLimit = 0;
        headerWritten = false;
        finishRequested = false;
        endWritten = false;
        bytesRead = 0;
        bytesWritten = 0;
    }

    /** Resets and applies {@code conf}'s ladder, controller and block size ({@code null}: keep the current ones). */
    @Override
    public void reinit(Configuration conf) {
        reset();
        if (conf != null) {
            apply(AdaptiveCodecSettings.from(conf));
        }
    }

    /** Frees the engine's native compressors; the compressor cannot be used afterwards. */
    @Override
    public void end() {
        reset();
        ended = true;
        block = null;
        frame = null;
    }

    private void ensureNotEnded() {
        if (ended) {
            throw new IllegalStateException("compressor has been ended");
        }
    }
}
