package org.adaptivecompress.stream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/** A sink that holds every write until {@link #open} is counted down, then keeps what it is given. */
final class HeldSink extends OutputStream {
    final CountDownLatch open = new CountDownLatch(1);
    final ByteArrayOutputStream received = new ByteArrayOutputStream();

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            open.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        synchronized (received) {
            received.write(b, off, len);
        }
    }

    /** What the sink has taken so far. */
    byte[] received() {
        synchronized (received) {
            return received.toByteArray();
        }
    }
}
