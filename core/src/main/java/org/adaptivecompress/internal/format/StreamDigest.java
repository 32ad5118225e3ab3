package org.adaptivecompress.internal.format;

import java.util.zip.CRC32C;
import org.adaptivecompress.format.BlockSequenceException;

/**
 * The check an end-of-stream marker carries over its stream's blocks, in its content CRC field:
 * the CRC32C of each block's uncompressed length and content CRC (header bytes 4-7 and 12-15,
 * big-endian), block after block since the stream header, 1 where that comes to 0. A block's
 * own checks cannot see a frame lost, repeated or moved whole (a copy that retried a write, a
 * file spliced at a frame boundary): each such frame is valid alone. The digest sees it, for 8
 * bytes of CRC per block rather than another pass over the content.
 *
 * <p>A marker whose field is 0 carries no digest (the streams written before it existed), and a
 * reader accepts it unchecked. A reader that starts inside a stream (a Hadoop split) has not
 * seen its first blocks and does not check either.
 *
 * <p>Not thread-safe; one per writer or reader, {@linkplain #reset() reset} at each stream header.
 */
public final class StreamDigest {

    private final CRC32C crc = new CRC32C();
    private final byte[] entry = new byte[8];

    /** Starts over, for the blocks of a new stream. */
    public void reset() {
        crc.reset();
    }

    /** Adds a block, in stream order, by its uncompressed length and the CRC32C of its content. */
    public void add(int uncompressedLength, int contentCrc) {
        FrameFormat.putInt(entry, 0, uncompressedLength);
        FrameFormat.putInt(entry, 4, contentCrc);
        crc.update(entry, 0, entry.length);
    }

    /** Adds a block by its parsed header; not the end-of-stream marker. */
    public void add(BlockHeader header) {
        add(header.uncompressedLength(), header.contentCrc());
    }

    /** The digest of the blocks added since the last reset, as an end marker carries it: never 0. */
    public int value() {
        int value = (int) crc.getValue();
        return value == 0 ? 1 : value;
    }

    /**
     * Checks an end-of-stream marker against the blocks added since the last reset.
     *
     * @param endMarker the parsed end-of-stream marker
     * @param position the marker's offset in the input, for the message
     * @throws BlockSequenceException if the marker carries a digest and it differs
     */
    public void verify(BlockHeader endMarker, long position) throws BlockSequenceException {
        int expected = endMarker.contentCrc();
        if (expected != 0 && expected != value()) {
            throw new BlockSequenceException(String.format("end-of-stream marker at stream offset %d: the"
                    + " stream's blocks do not match its digest (0x%08X, blocks read give 0x%08X); a whole"
                    + " frame is missing, repeated or out of order", position, expected, value()));
        }
    }
}
