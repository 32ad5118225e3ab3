package org.adaptivecompress.format;

/** A block declares more bytes than the reader's configured maximum; rejected before anything is allocated. */
public class OversizedBlockException extends FrameFormatException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public OversizedBlockException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public OversizedBlockException(String message, Throwable cause) {
        super(message, cause);
    }
}
