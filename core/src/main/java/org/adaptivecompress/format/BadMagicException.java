package org.adaptivecompress.format;

/** The stream does not start with the adaptive-compress magic bytes: it is not one of our streams. */
public class BadMagicException extends FrameFormatException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public BadMagicException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public BadMagicException(String message, Throwable cause) {
        super(message, cause);
    }
}
