package org.adaptivecompress.internal.format;

import java.nio.ByteBuffer;

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
        // Only the last capacity bytes can stay; they land where the ring's position puts them.
        int kept = Math.min(length, ring.length);
        total += length - kept;
        int at = (int) (total % ring.length);
        int first = Math.min(kept, ring.length - at);
        System.arraycopy(src, offset + length - kept, ring, at, first);
        System.arraycopy(src, offset + length - kept + first, ring, 0, kept - first);
        total += kept;
    }

    /** Appends the bytes remaining in {@code src} (heap or direct) without consuming them. */
    public void append(ByteBuffer src) {
        ByteBuffer view = src.duplicate();
        int kept = Math.min(view.remaining(), ring.length);
        total += view.remaining() - kept;
        view.position(view.limit() - kept);
        int at = (int) (total % ring.length);
        int first = Math.min(kept, ring.length - at);
        view.get(ring, at, first);
        view.get(ring, 0, kept - first);
        total += kept;
    }

    /** The stream's last {@code min(max, capacity, bytes so far)} bytes, oldest first. */
    public byte[] snapshot(int max) {
        return snapshot(max, null);
    }

    /**
     * Like {@link #snapshot(int)}, into {@code reuse} if it has exactly the snapshot's length
     * (a prime is as long as the tail once the stream has filled it, so the same array serves
     * every prime after the first), into a new array otherwise.
     */
    public byte[] snapshot(int max, byte[] reuse) {
        int capacity = ring.length;
        int held = (int) Math.min(Math.min(total, capacity), max);
        byte[] out = reuse != null && reuse.length == held ? reuse : new byte[held];
        int start = (int) ((total - held) % capacity);
        int first = Math.min(held, capacity - start);
        System.arraycopy(ring, start, out, 0, first);
        System.arraycopy(ring, 0, out, first, held - first);
        return out;
    }

    /** How many bytes {@link #snapshot(int)} of {@code max} would give: {@code min(max, capacity, bytes so far)}. */
    public int held(int max) {
        return (int) Math.min(Math.min(total, ring.length), max);
    }

    /** Copies the bytes {@link #snapshot(int)} of {@code max} would give into {@code dst} at its position, advancing it. */
    public void copyTo(int max, ByteBuffer dst) {
        int capacity = ring.length;
        int held = held(max);
        int start = (int) ((total - held) % capacity);
        int first = Math.min(held, capacity - start);
        dst.put(ring, start, first);
        dst.put(ring, 0, held - first);
    }

    /** Bytes appended since it was made or last cleared; it keeps the last {@code capacity} of them. */
    public long size() {
        return total;
    }

    /** True until a byte is appended (or after {@link #clear()}). */
    public boolean isEmpty() {
        return total == 0;
    }

    /** Forgets everything: a new stream starts. */
    public void clear() {
        total = 0;
    }
}
