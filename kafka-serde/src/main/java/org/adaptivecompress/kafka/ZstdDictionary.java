package org.adaptivecompress.kafka;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.kafka.common.config.ConfigException;

/** A zstd dictionary loaded from a file, with the id that frames compressed with it carry. */
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
     * @throws ConfigException naming the file if it cannot be read or is not a zstd dictionary
     */
    static ZstdDictionary load(String file) {
        Path path = Paths.get(file);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ConfigException(AdaptiveSerdeConfig.ZSTD_DICTIONARIES, file, "cannot read: " + e);
        }
        long id = Zstd.getDictIdFromDict(bytes);
        if (id == 0) {
            // Raw-content dictionaries have no id, so a reader could not tell which one a frame needs.
            throw new ConfigException(AdaptiveSerdeConfig.ZSTD_DICTIONARIES, file,
                    "not a zstd dictionary with an id (train one with DictionaryTrainer or zstd --train)");
        }
        return new ZstdDictionary((int) id, bytes);
    }
}
