package org.adaptivecompress.kafka;

/**
 * The frame declares an uncompressed length above {@code adaptive.max.value.bytes}; refused
 * before anything is allocated, so a corrupt length cannot exhaust the heap.
 */
public final class OversizedValueException extends AdaptiveFrameException {

    private static final long serialVersionUID = 1L;

    /** An oversized-value error with this message. */
    public OversizedValueException(String message) {
        super(message);
    }
}
