package org.adaptivecompress.hadoop;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Passes writes through and turns {@code close()} into {@code flush()}: an
 * {@link org.adaptivecompress.stream.AdaptiveOutputStream} closes its sink when it ends a
 * stream, but Hadoop's {@code finish()} must end the stream and leave the file open.
 */
final class NonClosingOutputStream extends FilterOutputStream {

    NonClosingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len); // FilterOutputStream would write byte by byte
    }

    @Override
    public void close() throws IOException {
        out.flush();
    }
}
