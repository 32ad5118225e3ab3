package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.OutputStream;
import org.adaptivecompress.internal.engine.SinkMeter;

/**
 * A sink that takes writes at once until it has taken enough to show the link fast
 * ({@link SinkMeter#SHOWN_WITHOUT_SPAN_BYTES}; until then a stream queues a frame only once the
 * sink has taken the last), then holds every later one until {@code held.open} is counted down,
 * so the frames written meanwhile stay queued.
 */
final class HeldOnceShown extends OutputStream {
    final HeldSink held = new HeldSink();
    volatile int passed;

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (passed < SinkMeter.SHOWN_WITHOUT_SPAN_BYTES) {
            passed += len;
            synchronized (held.received) {
                held.received.write(b, off, len);
            }
            return;
        }
        held.write(b, off, len);
    }

    /** What the sink has taken so far. */
    byte[] received() {
        return held.received();
    }
}
