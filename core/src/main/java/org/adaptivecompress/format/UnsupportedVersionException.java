package org.adaptivecompress.format;

/** The stream header names a format version or flags this reader does not know. */
public class UnsupportedVersionException extends FrameFormatException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public UnsupportedVersionException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public UnsupportedVersionException(String message, Throwable cause) {
        super(message, cause);
    }
}
