package org.adaptivecompress.kafka;

/** The value ends before its frame header or its declared payload does. */
public final class TruncatedFrameException extends AdaptiveFrameException {

    private static final long serialVersionUID = 1L;

    /** A truncation error with this message. */
    public TruncatedFrameException(String message) {
        super(message);
    }
}
