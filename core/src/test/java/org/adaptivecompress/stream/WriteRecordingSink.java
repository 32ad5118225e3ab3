package org.adaptivecompress.stream;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/** A sink that keeps what it is given and the length of every write, for tests of how a sender splits its writes. */
class WriteRecordingSink extends OutputStream {
    private final List<Integer> sizes = new ArrayList<>();
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        sizes.add(len);
        received.write(b, off, len);
    }

    /** The length of each write so far, in order. */
    synchronized List<Integer> sizes() {
        return List.copyOf(sizes);
    }

    /** The stream position each write so far ended at, in order. */
    synchronized List<Long> writeEnds() {
        List<Long> ends = new ArrayList<>(sizes.size());
        long end = 0;
        for (int size : sizes) {
            end += size;
            ends.add(end);
        }
        return ends;
    }

    /** What the sink has taken so far. */
    synchronized byte[] received() {
        return received.toByteArray();
    }
}
