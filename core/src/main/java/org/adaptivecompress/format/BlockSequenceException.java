package org.adaptivecompress.format;

import org.adaptivecompress.internal.format.StreamDigest;

/**
 * Every block checked out, but the stream's blocks are not the ones its writer wrote: the
 * end-of-stream marker's digest over their lengths and checksums (see {@link StreamDigest})
 * does not match, so a whole frame is missing, repeated or out of place.
 */
public class BlockSequenceException extends CorruptFrameException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public BlockSequenceException(String message) {
        super(message);
    }
}
