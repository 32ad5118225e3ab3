package org.adaptivecompress.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Builds configured serializers and deserializers over byte-array delegates for unit tests. */
final class SerdeConfigs {

    private SerdeConfigs() {}

    /** Properties with byte-array delegates for keys and values, plus {@code extra} key/value pairs. */
    static Map<String, Object> with(Object... extra) {
        Map<String, Object> m = new HashMap<>();
        m.put(AdaptiveSerdeConfig.DELEGATE_SERIALIZER, ByteArraySerializer.class.getName());
        m.put(AdaptiveSerdeConfig.KEY_DELEGATE_SERIALIZER, ByteArraySerializer.class.getName());
        m.put(AdaptiveSerdeConfig.DELEGATE_DESERIALIZER, ByteArrayDeserializer.class.getName());
        m.put(AdaptiveSerdeConfig.KEY_DELEGATE_DESERIALIZER, ByteArrayDeserializer.class.getName());
        for (int i = 0; i < extra.length; i += 2) {
            m.put((String) extra[i], extra[i + 1]);
        }
        return m;
    }

    static AdaptiveSerializer<byte[]> serializer(Map<String, Object> configs) {
        AdaptiveSerializer<byte[]> s = new AdaptiveSerializer<>();
        s.configure(configs, false);
        return s;
    }

    static AdaptiveDeserializer<byte[]> deserializer(Map<String, Object> configs) {
        AdaptiveDeserializer<byte[]> d = new AdaptiveDeserializer<>();
        d.configure(configs, false);
        return d;
    }
}
