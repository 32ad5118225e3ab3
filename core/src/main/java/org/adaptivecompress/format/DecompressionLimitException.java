package org.adaptivecompress.format;

/**
 * A stream would decode to more than the reader allows: past its limit on a stream's content, or
 * a block whose declared length is more times its payload's than the reader's expansion limit (a
 * decompression bomb). Refused before the block is decoded.
 */
public class DecompressionLimitException extends FrameFormatException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says which limit and where. */
    public DecompressionLimitException(String message) {
        super(message);
    }
}
