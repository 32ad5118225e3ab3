package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.OutputStream;
import org.adaptivecompress.internal.engine.SinkMeter;

/**
 * The stream's sink with every write and flush timed by a {@link SinkMeter}, whichever thread
 * makes it (the sender, or the writer writing raw frames itself): the controller reads the
 * link's rate from these times.
 */
final class MeteredSink extends OutputStream {

    private final OutputStream sink;
    private final SinkMeter meter;

    MeteredSink(OutputStream sink, SinkMeter meter) {
        this.sink = sink;
        this.meter = meter;
    }

    @Override
    public void write(int b) throws IOException {
        meter.writeStarted(System.nanoTime(), 1);
        long written = 0;
        try {
            sink.write(b);
            written = 1;
        } finally {
            meter.writeEnded(System.nanoTime(), written);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        meter.writeStarted(System.nanoTime(), len);
        long written = 0;
        try {
            sink.write(b, off, len);
            written = len;
        } finally {
            meter.writeEnded(System.nanoTime(), written);
        }
    }

    /** Timed as a write of nothing: a flush that waits, waits for the link. */
    @Override
    public void flush() throws IOException {
        meter.writeStarted(System.nanoTime(), 0);
        try {
            sink.flush();
        } finally {
            meter.writeEnded(System.nanoTime(), 0);
        }
    }

    @Override
    public void close() throws IOException {
        sink.close();
    }
}
