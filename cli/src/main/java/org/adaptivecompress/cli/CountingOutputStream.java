package org.adaptivecompress.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Counts the bytes written through it (read from another thread by the progress bar), and
 * optionally keeps the stream under it open: closing a compressor must not close stdout.
 */
public final class CountingOutputStream extends FilterOutputStream {

    private final boolean closeUnderlying;
    private volatile long count;

    /** Counts what is written to {@code out}; closes {@code out} on close only if {@code closeUnderlying}. */
    public CountingOutputStream(OutputStream out, boolean closeUnderlying) {
        super(out);
        this.closeUnderlying = closeUnderlying;
    }

    /** Bytes written so far. */
    public long count() {
        return count;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        count += len;
    }

    @Override
    public void close() throws IOException {
        if (closeUnderlying) {
            super.close();
        } else {
            out.flush();
        }
    }
}
