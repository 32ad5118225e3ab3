package org.adaptivecompress.internal.format;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.UnsupportedVersionException;

/**
 * The frame a reader sends back to a writer to advertise its {@link ReceiverBudget}, before
 * any stream (docs/FORMAT.md, "Budget frame"): magic {@code 'AdOB'} (4), version (1), reserved
 * zero (1), length of the spec (2, big-endian, at most {@value #MAX_SPEC_LENGTH}), the spec in
 * ASCII, and a CRC32C of everything before it (4).
 */
public final class BudgetFrame {

    /** {@code 'AdOB'}: unlike a stream's {@code 'AdOC'}, so neither is taken for the other. */
    public static final int MAGIC = 0x41644F42;
    /** The version this library writes and reads. */
    public static final int VERSION = 1;
    /** Bytes before the spec: magic, version, reserved, length. */
    public static final int HEADER_LENGTH = 8;
    /** The longest spec accepted: a budget names at most a few codecs and two sizes. */
    public static final int MAX_SPEC_LENGTH = 1024;
    private static final int CHECK_LENGTH = 4;

    private BudgetFrame() {}

    /** The frame advertising {@code budget}. */
    public static byte[] encode(ReceiverBudget budget) {
        byte[] spec = budget.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[HEADER_LENGTH + spec.length + CHECK_LENGTH];
        FrameFormat.putInt(frame, 0, MAGIC);
        frame[4] = VERSION;
        frame[6] = (byte) (spec.length >>> 8);
        frame[7] = (byte) spec.length;
        System.arraycopy(spec, 0, frame, HEADER_LENGTH, spec.length);
        FrameFormat.putInt(frame, HEADER_LENGTH + spec.length, crc(frame, HEADER_LENGTH + spec.length));
        return frame;
    }

    /**
     * The whole frame's length, from its {@value #HEADER_LENGTH}-byte header at {@code src[offset]}.
     *
     * @throws BadMagicException if it is not a budget frame (a peer that does not advertise one)
     * @throws UnsupportedVersionException for a version or reserved byte this reader does not know
     * @throws CorruptFrameException for a spec longer than {@value #MAX_SPEC_LENGTH}
     */
    public static int frameLength(byte[] src, int offset) throws FrameFormatException {
        int magic = FrameFormat.getInt(src, offset);
        if (magic != MAGIC) {
            throw new BadMagicException(String.format("expected the peer's receiver budget (magic 0x%08X, 'AdOB'),"
                    + " found 0x%08X: does the peer advertise one?", MAGIC, magic));
        }
        if (src[offset + 4] != VERSION || src[offset + 5] != 0) {
            throw new UnsupportedVersionException("budget frame version " + (src[offset + 4] & 0xFF) + " reserved "
                    + (src[offset + 5] & 0xFF) + ": this reader knows version " + VERSION + " with reserved 0");
        }
        int specLength = ((src[offset + 6] & 0xFF) << 8) | (src[offset + 7] & 0xFF);
        if (specLength > MAX_SPEC_LENGTH) {
            throw new CorruptFrameException("budget frame declares a " + specLength + "-byte spec, over the limit of "
                    + MAX_SPEC_LENGTH);
        }
        return HEADER_LENGTH + specLength + CHECK_LENGTH;
    }

    /**
     * The budget in the whole frame at {@code src[offset]}, {@link #frameLength} bytes long.
     *
     * @throws CorruptFrameException if its check fails or its spec does not parse
     */
    public static ReceiverBudget decode(byte[] src, int offset) throws FrameFormatException {
        int length = frameLength(src, offset);
        int checked = length - CHECK_LENGTH;
        byte[] frame = new byte[checked];
        System.arraycopy(src, offset, frame, 0, checked);
        if (crc(frame, checked) != FrameFormat.getInt(src, offset + checked)) {
            throw new CorruptFrameException("budget frame fails its CRC32C check");
        }
        String spec = new String(frame, HEADER_LENGTH, checked - HEADER_LENGTH, StandardCharsets.US_ASCII);
        try {
            return ReceiverBudget.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new CorruptFrameException("budget frame's spec '" + spec + "' does not parse: " + e.getMessage(), e);
        }
    }

    /**
     * Reads one budget frame from {@code in}: exactly its bytes, nothing after it.
     *
     * @throws EOFException if the stream ends first
     * @throws FrameFormatException if it is not a valid budget frame
     */
    public static ReceiverBudget read(InputStream in) throws IOException {
        byte[] frame = new byte[HEADER_LENGTH + MAX_SPEC_LENGTH + CHECK_LENGTH];
        readFully(in, frame, 0, HEADER_LENGTH);
        int length = frameLength(frame, 0);
        readFully(in, frame, HEADER_LENGTH, length - HEADER_LENGTH);
        return decode(frame, 0);
    }

    private static void readFully(InputStream in, byte[] dst, int offset, int length) throws IOException {
        for (int done = 0; done < length; ) {
            int n = in.read(dst, offset + done, length - done);
            if (n < 0) {
                throw new EOFException("the peer closed before its receiver budget was complete (" + (offset + done)
                        + " bytes of it read)");
            }
            done += n;
        }
    }

    private static int crc(byte[] src, int length) {
        CRC32C crc = new CRC32C();
        crc.update(src, 0, length);
        return (int) crc.getValue();
    }
}
