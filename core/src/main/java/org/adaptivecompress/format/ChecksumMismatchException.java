package org.adaptivecompress.format;

/** A block decoded, but its bytes do not match the CRC32C its header carries. */
public class ChecksumMismatchException extends CorruptFrameException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message that says what was wrong and where. */
    public ChecksumMismatchException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that revealed it. */
    public ChecksumMismatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
