package org.adaptivecompress.benchmarks.link.agent;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Counts the bytes written into the socket: the wire bytes of a transfer. */
final class CountingOutputStream extends FilterOutputStream {

    private volatile long count;

    CountingOutputStream(OutputStream out) {
        super(out);
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

    /** Counts bytes that went into the socket another way (the plain copy's first writes). */
    void add(long n) {
        count += n;
    }

    long count() {
        return count;
    }
}
