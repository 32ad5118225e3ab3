package org.adaptivecompress.internal.format;

import java.io.IOException;
import java.io.InputStream;
import org.adaptivecompress.format.TruncatedStreamException;

/**
 * Grows a reader's payload buffer as the payload's bytes arrive, not to the length its header
 * declares: a peer that sends a valid header and stalls makes a reader allocate at most
 * {@link #FIRST_ALLOCATION} bytes, however long a payload the header announces.
 *
 * <p>The buffer doubles as it fills, so a legitimate block costs at most one extra copy of
 * itself, once: a reader keeps its largest buffer for the blocks that follow.
 */
public final class PayloadBuffer {

    /**
     * The most a reader allocates for a payload before any of it has arrived: a socket read's
     * worth, so a trickling peer still fills it in one or two reads.
     */
    public static final int FIRST_ALLOCATION = 64 * 1024;

    private PayloadBuffer() {}

    /**
     * {@code buffer} if it has room past {@code filled} (or holds {@code total} bytes), else a
     * larger copy of its first {@code filled} bytes: twice its length, at least
     * {@link #FIRST_ALLOCATION}, at most {@code total}. A reader reads into the result up to
     * {@code min(total, result.length)}, then asks again.
     *
     * @param filled bytes of the payload already in {@code buffer}
     * @param total bytes the buffer must hold once the payload is whole
     */
    public static byte[] roomFor(byte[] buffer, int filled, int total) {
        if (filled < 0 || filled > total || filled > buffer.length) {
            throw new IllegalArgumentException("filled " + filled + " of " + total + " in a buffer of " + buffer.length);
        }
        if (buffer.length >= total || buffer.length > filled) {
            return buffer;
        }
        long grown = Math.max(FIRST_ALLOCATION, 2L * buffer.length);
        byte[] larger = new byte[(int) Math.min(total, grown)];
        System.arraycopy(buffer, 0, larger, 0, filled);
        return larger;
    }

    /**
     * Reads a {@code length}-byte payload from {@code in} into {@code buffer}, grown as the bytes
     * arrive ({@link #roomFor}); returns it, or the larger array that replaced it.
     *
     * @param position where the payload starts in the stream, for the message
     * @throws TruncatedStreamException if the input ends first
     */
    public static byte[] read(InputStream in, byte[] buffer, int length, long position) throws IOException {
        for (int done = 0; done < length; ) {
            buffer = roomFor(buffer, done, length);
            int n = in.read(buffer, done, Math.min(buffer.length, length) - done);
            if (n < 0) {
                throw new TruncatedStreamException("stream ends at offset " + (position + done)
                        + " inside a block payload (" + done + " of " + length + " bytes present)");
            }
            done += n;
        }
        return buffer;
    }
}
