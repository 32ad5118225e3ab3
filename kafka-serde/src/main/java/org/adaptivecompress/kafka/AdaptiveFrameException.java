package org.adaptivecompress.kafka;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A value handed to {@link AdaptiveDeserializer} is not a valid compact record frame: corrupt,
 * truncated, unframed, too large or compressed with an unknown dictionary. The subclasses say
 * which; the message names the topic and what is wrong.
 */
public class AdaptiveFrameException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /** A frame error with this message. */
    public AdaptiveFrameException(String message) {
        super(message);
    }

    /** A frame error with this message and the codec's own error as cause. */
    public AdaptiveFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
