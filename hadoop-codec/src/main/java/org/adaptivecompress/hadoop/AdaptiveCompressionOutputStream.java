package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;

/**
 * The codec's output stream: the adaptive pipeline ({@link AdaptiveOutputStream}, whose sender
 * thread writes to the underlying stream) behind Hadoop's {@link CompressionOutputStream}
 * contract. A slow HDFS pipeline or disk therefore fills the FIFO and raises the rung.
 *
 * <p>{@link #finish()} ends the current stream (end-of-stream marker, everything written to the
 * underlying stream and flushed) without closing the underlying stream; {@link #resetState()}
 * starts a new one (SequenceFile does both around every record or block). The streams share one
 * pipeline, built on first use over a filter that does not close the underlying stream and
 * closed with this stream ({@link AdaptiveOutputStream#finish()}): building one per stream cost
 * a RECORD-compressed SequenceFile a sender thread and a 1 MiB FIFO for every value.
 */
final class AdaptiveCompressionOutputStream extends CompressionOutputStream {

    private final AdaptiveOutputStream.Builder builder;
    private final Compressor leased;
    /** The pipeline every stream runs on; null until first used. */
    private AdaptiveOutputStream pipelineStream;
    private boolean finished;
    private boolean closed;

    /**
     * @param leased a compressor leased from {@link CodecPool} for this stream, returned on
     *     close; {@code null} if the caller owns the compressor
     */
    AdaptiveCompressionOutputStream(OutputStream out, AdaptiveCodecSettings settings, Compressor leased) {
        super(out);
        this.builder = AdaptiveOutputStream.builder()
                .compression(settings.streamOptions())
                .fifoCapacity(settings.fifoCapacity());
        this.leased = leased;
    }

    @Override
    public void write(int b) throws IOException {
        stream().write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        stream().write(b, off, len);
    }

    /** Returns once everything written so far has reached the underlying stream, flushed. */
    @Override
    public void flush() throws IOException {
        if (pipelineStream != null) {
            pipelineStream.flush();
        } else {
            out.flush();
        }
    }

    /** Ends the stream (an empty one if nothing was written) without closing the underlying stream. */
    @Override
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        pipeline().finish();
    }

    /** Starts a new stream; a stream still open is finished first, so nothing written is lost. */
    @Override
    public void resetState() throws IOException {
        finish();
        finished = false;
    }

    /**
     * Finishes the stream, closes the underlying stream and returns a leased compressor to the
     * pool, whatever fails. If finishing fails, that failure is thrown (it says why the data is
     * incomplete), with any failure to close the underlying stream added as suppressed.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            finish();
            if (pipelineStream != null) {
                pipelineStream.close(); // the stream is ended: this stops the pipeline and writes nothing
            }
        } catch (Throwable first) {
            closePipelineAfter(first);
            closeUnderlyingAfter(first);
            throw first;
        }
        closeUnderlying();
    }

    /** Stops the pipeline after {@code first}; its own failure is added only if it is another one. */
    private void closePipelineAfter(Throwable first) {
        try {
            if (pipelineStream != null) {
                pipelineStream.close();
            }
        } catch (Throwable second) {
            if (rootCause(second) != rootCause(first)) { // a failed pipeline reports its failure again on close
                first.addSuppressed(second);
            }
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private void closeUnderlyingAfter(Throwable first) {
        try {
            closeUnderlying();
        } catch (Throwable second) {
            if (second != first) { // addSuppressed refuses the exception itself, which a sink may rethrow
                first.addSuppressed(second);
            }
        }
    }

    private void closeUnderlying() throws IOException {
        try {
            out.close();
        } finally {
            if (leased != null) {
                CodecPool.returnCompressor(leased);
            }
        }
    }

    /** Rungs chosen and bytes in and out over every stream so far; {@code null} before the first. */
    CompressionStatistics statistics() {
        return pipelineStream != null ? pipelineStream.statistics() : null;
    }

    private AdaptiveOutputStream stream() throws IOException {
        if (closed) {
            throw new IOException("stream is closed");
        }
        if (finished) {
            throw new IOException("write after finish(): call resetState() to start a new stream");
        }
        return pipeline();
    }

    private AdaptiveOutputStream pipeline() {
        if (pipelineStream == null) {
            pipelineStream = builder.build(new NonClosingOutputStream(out));
        }
        return pipelineStream;
    }
}
