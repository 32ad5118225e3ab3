package org.adaptivecompress.format;

/**
 * The last {@code capacity} bytes of a stream's content, which a history primed with them
 * ({@link FrameFormat#BLOCK_FLAG_PRIMED}) starts from. Writer and reader each keep one, fed
 * with every block's uncompressed bytes in stream order, so both hold the same bytes at every
 * block boundary.
 *
 * <p>Not thread-safe.
 */
public final class StreamTail {

    private final byte[] ring;
    private long total;

    /** An empty tail keeping at most {@code capacity} bytes. */
    public StreamTail(int capacity) {
        this.ring = new byte[capacity];
    }

    /** Appends {@code src[offset, offset + length)}. */
    public void append(byte[] src, int offset, int length) {
        int capacity = ring.length;
        if (length >= capacity) {
            System.arraycopy(src, offset + length - capacity, ring, 0, capacity);
            total += length;
            // The ring now starts at index total % capacity: rotate so that holds.
            rotateTo((int) (total % capacity));
            return;
        }
        int at = (int) (total % capacity);
        int first = Math.min(length, capacity - at);
        System.arraycopy(src, offset, ring, at, first);
        System.arraycopy(src, offset + first, ring, 0, length - first);
        total += length;
    }

    /** Appends the bytes remaining in {@code src} without consuming them. */
    public void append(java.nio.ByteBuffer src) {
        java.nio.ByteBuffer view = src.duplicate();
        byte[] chunk = new byte[Math.min(view.remaining(), 64 << 10)];
        while (view.hasRemaining()) {
            int n = Math.min(chunk.length, view.remaining());
            view.get(chunk, 0, n);
            append(chunk, 0, n);
        }
    }

    /** The stream's last {@code min(max, capacity, bytes so far)} bytes, oldest first. */
    public byte[] snapshot(int max) {
        int capacity = ring.length;
        int held = (int) Math.min(Math.min(total, capacity), max);
        byte[] out = new byte[held];
        int start = (int) ((total - held) % capacity);
        int first = Math.min(held, capacity - start);
        System.arraycopy(ring, start, out, 0, first);
        System.arraycopy(ring, 0, out, first, held - first);
        return out;
    }

    /** True until a byte is appended (or after {@link #clear()}). */
    public boolean isEmpty() {
        return total == 0;
    }

    /** Forgets everything: a new stream starts. */
    public void clear() {
        total = 0;
    }

    private void rotateTo(int start) {
        if (start == 0) {
            return;
        }
        byte[] copy = ring.clone();
        int capacity = ring.length;
        // copy holds the last bytes oldest first from index 0; place them from index start.
        System.arraycopy(copy, 0, ring, start, capacity - start);
        System.arraycopy(copy, capacity - start, ring, 0, start);
    }
}
