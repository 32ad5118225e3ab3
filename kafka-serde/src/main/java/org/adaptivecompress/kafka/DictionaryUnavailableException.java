package org.adaptivecompress.kafka;

/**
 * A frame names a zstd dictionary the deserializer cannot have: not among
 * {@code adaptive.zstd.dictionaries}, and not found in {@code adaptive.dictionary.topic} within
 * {@code adaptive.dictionary.timeout.ms}, or found there but rejected. The message names the id,
 * the dictionary topic and the reason.
 */
public class DictionaryUnavailableException extends AdaptiveFrameException {

    private static final long serialVersionUID = 1L;

    private final long dictionaryId;
    private final String dictionaryTopic;

    /**
     * @param message the full message
     * @param dictionaryId the id the frame names, unsigned
     * @param dictionaryTopic the dictionary topic consulted, or {@code null} if none is configured
     */
    public DictionaryUnavailableException(String message, long dictionaryId, String dictionaryTopic) {
        super(message);
        this.dictionaryId = dictionaryId;
        this.dictionaryTopic = dictionaryTopic;
    }

    /** The dictionary id the frame names, unsigned. */
    public long dictionaryId() {
        return dictionaryId;
    }

    /** The dictionary topic consulted, or {@code null} if none is configured. */
    public String dictionaryTopic() {
        return dictionaryTopic;
    }
}
