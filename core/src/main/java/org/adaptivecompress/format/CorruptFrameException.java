package org.adaptivecompress.format;

/** A block header or payload is damaged: its header check fails, its fields contradict each other, or its payload does not decode. */
public class CorruptFrameException extends FrameFormatException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public CorruptFrameException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public CorruptFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
