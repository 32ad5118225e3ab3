package org.adaptivecompress.format;

/** The input ended inside a header or block, or before the end-of-stream marker. */
public class TruncatedStreamException extends FrameFormatException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public TruncatedStreamException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public TruncatedStreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
