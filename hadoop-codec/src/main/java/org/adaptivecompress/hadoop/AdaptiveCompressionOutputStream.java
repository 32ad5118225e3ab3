package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * The codec's output stream: the adaptive pipeline ({@link AdaptiveOutputStream}, whose sender
 * thread writes to the underlying stream) behind Hadoop's {@link CompressionOutputStream}
 * contract. A slow HDFS pipeline or disk therefore fills the FIFO and raises the rung.
 *
 * <p>{@link #finish()} ends the current stream (end-of-stream marker, everything written to the
 * underlying stream and flushed) without closing the underlying stream; {@link #resetState()}
 * starts a new one (SequenceFile does both around every record or block). Each stream gets its
 * own pipeline, opened on first use, over a filter that does not close the underlying stream,
 * and stopped by {@link #finish()}; a stream shorter than a block (a RECORD-compressed
 * SequenceFile's value) starts no sender thread. A pipeline kept for the next stream (core's
 * {@link AdaptiveOutputStream#finish()}) would keep its codec contexts too, but Hadoop's callers
 * do not all close this stream (IFile writers that share the spill file's stream,
 * SequenceFile's BLOCK writer), and its sender thread would then outlive them.
 */
final class AdaptiveCompressionOutputStream extends CompressionOutputStream {

    private final AdaptiveOutputStream.Builder pipeline;
    private AdaptiveOutputStream current;
    private CompressionStatistics lastStatistics;
    private boolean finished;
    private boolean closed;

    AdaptiveCompressionOutputStream(OutputStream out, AdaptiveCodecSettings settings) {
        super(out);
        this.pipeline = AdaptiveOutputStream.builder()
                .compression(settings.streamOptions())
                .fifoCapacity(settings.fifoCapacity());
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
        if (current != null) {
            current.flush();
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
        AdaptiveOutputStream s = current == null ? open() : current;
        current = null;
        finished = true;
        try {
            s.close();
        } finally {
            lastStatistics = s.statistics();
        }
    }

    /** Starts a new stream; a stream still open is finished first, so nothing written is lost. */
    @Override
    public void resetState() throws IOException {
        if (current != null) {
            finish();
        }
        finished = false;
    }

    /**
     * Finishes the stream and closes the underlying stream, whatever fails. If finishing fails, that failure is thrown (it says why the data is
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
        } catch (Throwable first) {
            closeUnderlyingAfter(first);
            throw first;
        }
        closeUnderlying();
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
        out.close();
    }

    /**
     * Rungs chosen and bytes in and out: of the open stream, else of the last finished one,
     * else {@code null}.
     */
    CompressionStatistics statistics() {
        return current != null ? current.statistics() : lastStatistics;
    }

    private AdaptiveOutputStream stream() throws IOException {
        if (closed) {
            throw new IOException("stream is closed");
        }
        if (finished) {
            throw new IOException("write after finish(): call resetState() to start a new stream");
        }
        return current != null ? current : open();
    }

    private AdaptiveOutputStream open() {
        current = pipeline.build(new NonClosingOutputStream(out));
        return current;
    }
}
