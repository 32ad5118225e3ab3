package org.adaptivecompress.format;

/** A block names a codec id this reader does not know. */
public class UnknownCodecException extends CorruptFrameException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public UnknownCodecException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public UnknownCodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
