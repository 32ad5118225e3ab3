package org.adaptivecompress.kafka;

/**
 * The value does not start with the frame's magic byte: it was written by another serializer
 * (set {@code adaptive.legacy.passthrough=true} to hand such values to the delegate unchanged).
 */
public final class UnframedValueException extends AdaptiveFrameException {

    private static final long serialVersionUID = 1L;

    /** An unframed-value error with this message. */
    public UnframedValueException(String message) {
        super(message);
    }
}
