package org.adaptivecompress.kafka;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictDecompress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.kafka.common.config.ConfigException;

/**
 * A zstd dictionary, from a file or the dictionary topic, with the id that frames compressed with
 * it carry. zstd's trainer derives the id from a hash of the dictionary's content.
 */
final class ZstdDictionary {

    final int id;
    final byte[] bytes;

    private ZstdDictionary(int id, byte[] bytes) {
        this.id = id;
        this.bytes = bytes;
    }

    /**
     * Loads a dictionary trained by zstd (or {@link DictionaryTrainer}).
     *
     * @throws ConfigException naming the file if it cannot be read or is not a valid zstd dictionary
     */
    static ZstdDictionary load(String file) {
        Path path = Paths.get(file);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ConfigException(AdaptiveSerdeConfig.ZSTD_DICTIONARIES, file, "cannot read: " + e);
        }
        String problem = problem(bytes, Integer.MAX_VALUE);
        if (problem != null) {
            throw new ConfigException(AdaptiveSerdeConfig.ZSTD_DICTIONARIES, file,
                    problem + " (train one with DictionaryTrainer or zstd --train)");
        }
        return new ZstdDictionary((int) Zstd.getDictIdFromDict(bytes), bytes);
    }

    /**
     * A dictionary trained here or read from the dictionary topic.
     *
     * @throws IllegalArgumentException saying why if {@link #problem} finds one
     */
    static ZstdDictionary of(byte[] bytes, int maxBytes) {
        String problem = problem(bytes, maxBytes);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new ZstdDictionary((int) Zstd.getDictIdFromDict(bytes), bytes);
    }

    /**
     * Why {@code bytes} cannot serve as a dictionary, or {@code null} if they can: larger than
     * {@code maxBytes}, without an id (raw content: a reader could not tell which one a frame
     * needs), or with entropy tables zstd itself refuses to load.
     */
    static String problem(byte[] bytes, int maxBytes) {
        if (bytes.length > maxBytes) {
            return "dictionary of " + bytes.length + " bytes is over the limit of " + maxBytes;
        }
        if (Zstd.getDictIdFromDict(bytes) == 0) {
            return "not a zstd dictionary with an id";
        }
        try (ZstdDictDecompress check = new ZstdDictDecompress(bytes)) {
            return null;
        } catch (RuntimeException e) {
            return "zstd refuses the dictionary: " + e.getMessage();
        }
    }

    /** The id as zstd prints it (unsigned). */
    String idString() {
        return Integer.toUnsignedString(id);
    }
}
