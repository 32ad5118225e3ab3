package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.Map;

/**
 * Finds the dictionary a frame names for {@link AdaptiveDeserializer}: among the files configured
 * by hand first, then in the dictionary topic, if one is configured. Thread-safe.
 */
final class DictionaryResolver implements AutoCloseable {

    private final Map<Integer, ZstdDictionary> files;
    private final DictionaryStore store;
    private final String dictionaryTopic;
    private final Duration timeout;

    /**
     * @param store the dictionary topic's reader, or {@code null} if no topic is configured
     */
    DictionaryResolver(Map<Integer, ZstdDictionary> files, DictionaryStore store, String dictionaryTopic,
            Duration timeout) {
        this.files = files;
        this.store = store;
        this.dictionaryTopic = store == null ? null : dictionaryTopic;
        this.timeout = timeout;
    }

    /**
     * The dictionary with {@code id}.
     *
     * @throws DictionaryUnavailableException naming the id, the dictionary topic and why
     */
    ZstdDictionary resolve(String recordTopic, int id) {
        ZstdDictionary d = files.get(id);
        if (d != null) {
            return d;
        }
        String where = RecordFrame.where(recordTopic) + "frame needs zstd dictionary id " + Integer.toUnsignedString(id)
                + ", which is not in adaptive.zstd.dictionaries (" + (files.isEmpty() ? "none" : files.size() + " files")
                + ")";
        if (store == null) {
            throw new DictionaryUnavailableException(where + " and no dictionary topic is read (adaptive.dictionary.topic "
                    + "is empty, or the deserializer was not configured with bootstrap.servers)",
                    Integer.toUnsignedLong(id), null);
        }
        try {
            return store.find(id, timeout);
        } catch (DictionaryStore.Miss miss) {
            throw new DictionaryUnavailableException(where + "; dictionary topic " + dictionaryTopic + ": "
                    + miss.getMessage(), Integer.toUnsignedLong(id), dictionaryTopic);
        }
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }
}
