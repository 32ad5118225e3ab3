package org.adaptivecompress.kafka;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The records of the dictionary topic, and the settings of the clients that read and write it.
 *
 * <p>One record per dictionary: the key is the dictionary's id as an unsigned decimal string, the
 * value the dictionary as zstd wrote it, and header {@value #SOURCE_TOPIC_HEADER} the topic whose
 * values it was trained on. The topic is compacted, so it keeps every dictionary a record may
 * still name.
 */
final class DictionaryTopic {

    /** Header naming the topic a dictionary was trained for. */
    static final String SOURCE_TOPIC_HEADER = "adaptive.source.topic";

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private DictionaryTopic() {}

    static ProducerRecord<byte[], byte[]> record(String dictionaryTopic, String sourceTopic, ZstdDictionary d) {
        Headers headers = new RecordHeaders();
        headers.add(SOURCE_TOPIC_HEADER, sourceTopic.getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(dictionaryTopic, null, key(d.id), d.bytes, headers);
    }

    static byte[] key(int id) {
        return Integer.toUnsignedString(id).getBytes(StandardCharsets.UTF_8);
    }

    /** The id a record's key names, or -1 if the key is not an id (a record not written here). */
    static long id(byte[] key) {
        if (key == null) {
            return -1;
        }
        try {
            return Integer.toUnsignedLong(Integer.parseUnsignedInt(new String(key, StandardCharsets.UTF_8)));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The source topic a record's header names, or {@code null}. */
    static String sourceTopic(Headers headers) {
        Header h = headers.lastHeader(SOURCE_TOPIC_HEADER);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /**
     * The settings the dictionary topic's own clients take from the user's producer or consumer:
     * where the cluster is and how to authenticate. Then every {@code adaptive.dictionary.client.*}
     * setting, prefix removed, so those clients can be told apart (e.g. another principal).
     */
    static Map<String, Object> clientConfigs(Map<String, ?> userConfigs, String clientIdSuffix) {
        Map<String, Object> configs = new HashMap<>();
        for (Map.Entry<String, ?> e : userConfigs.entrySet()) {
            String key = e.getKey();
            if (key.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                    || key.equals(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG)
                    || key.equals(CommonClientConfigs.CLIENT_DNS_LOOKUP_CONFIG)
                    || key.startsWith("ssl.") || key.startsWith("sasl.")) {
                configs.put(key, e.getValue());
            }
        }
        for (Map.Entry<String, ?> e : userConfigs.entrySet()) {
            if (e.getKey().startsWith(AdaptiveSerdeConfig.DICTIONARY_CLIENT_PREFIX)) {
                configs.put(e.getKey().substring(AdaptiveSerdeConfig.DICTIONARY_CLIENT_PREFIX.length()), e.getValue());
            }
        }
        Object clientId = userConfigs.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        // Numbered: the key and value serde of one client, or two serdes, must not share a client.id.
        configs.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG,
                (clientId == null || clientId.toString().isEmpty() ? "adaptive" : clientId) + "-" + clientIdSuffix
                        + "-" + CLIENTS.incrementAndGet());
        return configs;
    }
}
