package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.OutputStream;

/** A sink whose every write fails with an {@link IOException} carrying the given message. */
final class BrokenSink extends OutputStream {
    private final String message;

    BrokenSink(String message) {
        this.message = message;
    }

    @Override
    public void write(int b) throws IOException {
        throw new IOException(message);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        throw new IOException(message);
    }
}
