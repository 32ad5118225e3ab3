package org.adaptivecompress.internal.codec;

import java.io.IOException;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.HistoryCompressor;
import org.tukaani.xz.ArrayCache;
import org.tukaani.xz.BasicArrayCache;
import org.tukaani.xz.FinishableOutputStream;
import org.tukaani.xz.FinishableWrapperOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.UnsupportedOptionsException;

/**
 * A {@link HistoryCompressor} for xz: one raw LZMA2 stream kept open across blocks at one
 * preset, its dictionary the whole window, flushed after each block (an LZMA2 flush ends the chunk
 * and keeps the dictionary). Holds the preset's match finder arrays.
 */
final class XzHistoryCompressor implements HistoryCompressor {

    private final LZMA2Options options;
    private final ArrayCache cache = new BasicArrayCache();
    private final XzCodec.BoundedArrayOutputStream sink = new XzCodec.BoundedArrayOutputStream();
    /** Where an abandoned stream's end marker goes (see releaseEncoder). */
    private final byte[] scratch = new byte[64];
    private FinishableOutputStream encoder;
    /** What the next stream starts primed with; null for nothing. */
    private byte[] prime;
    /** Set once the first encoder is made: its cache then holds the arrays. */
    private volatile boolean used;
    private volatile boolean closed;

    /** @param windowLog log2 of the dictionary: the preset's own, or less where the stream's window is smaller */
    XzHistoryCompressor(int preset, int windowLog) {
        try {
            options = new LZMA2Options(preset);
            options.setDictSize(1 << windowLog);
        } catch (UnsupportedOptionsException e) {
            throw new IllegalArgumentException("xz preset " + preset + " or window log " + windowLog
                    + " out of range", e);
        }
    }

    @Override
    public boolean continuesFrame() {
        return encoder != null;
    }

    @Override
    public void prime(byte[] content) {
        releaseEncoder();
        prime = content.length > 0 ? content : null;
    }

    @Override
    public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
        if (closed) {
            throw new IllegalStateException("compressor is closed");
        }
        sink.reset(dst, dstOffset, dstLength);
        try {
            if (encoder == null) {
                options.setPresetDict(prime);
                prime = null;
                encoder = options.getOutputStream(new FinishableWrapperOutputStream(sink), cache);
                used = true;
            }
            encoder.write(src, srcOffset, srcLength);
            encoder.flush();
            return sink.written();
        } catch (XzCodec.BoundedArrayOutputStream.Full full) {
            // The encoder wrote part of a chunk: its state no longer matches any reader's.
            releaseEncoder();
            return BlockCompressor.DOES_NOT_FIT;
        } catch (IOException e) {
            encoder = null;
            // The sink is an array: the only IOException it raises is Full, handled above.
            throw new IllegalStateException("LZMA2 encoder failed on an in-memory block", e);
        }
    }

    /**
     * Drops the open stream, first finishing it into a scratch array: finishing is what hands
     * the encoder's arrays back to the cache (about 93 MiB at preset 6 with its 8 MiB dictionary,
     * which the next stream would otherwise allocate afresh). The few bytes it writes go
     * nowhere; an encoder that cannot finish there leaves its arrays to the collector.
     */
    private void releaseEncoder() {
        FinishableOutputStream old = encoder;
        encoder = null;
        if (old != null) {
            sink.reset(scratch, 0, scratch.length);
            try {
                old.finish();
            } catch (IOException e) {
                // a pending chunk larger than the scratch, or the encoder's stored failure
            }
        }
    }

    @Override
    public long nativeBytes() {
        return 0;
    }

    /** The encoder's arrays, which its cache keeps from the first block until the compressor closes. */
    @Override
    public long heapBytes() {
        return used && !closed ? options.getEncoderMemoryUsage() * 1024L : 0;
    }

    @Override
    public void close() {
        // Arrays go with the cache; an unfinished encoder holds nothing else.
        closed = true;
        encoder = null;
    }
}
