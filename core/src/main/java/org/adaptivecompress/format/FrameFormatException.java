package org.adaptivecompress.format;

/** Base of every error about bytes that are not a valid adaptive-compress stream. */
public class FrameFormatException extends java.io.IOException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public FrameFormatException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public FrameFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
