package org.adaptivecompress.kafka;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigException;

/**
 * Gives {@link AdaptiveSerializer} its feedback: add this class to the producer's
 * {@code interceptor.classes} and every acknowledgement (or failure) removes the record's
 * serialized size, as {@link RecordMetadata#serializedValueSize()} reports it, from the
 * producer's in-flight bytes. The serializer adds to the same gauge, found by {@code client.id}.
 *
 * <p>Records pass through unchanged. Without this interceptor the serializer uses the fixed
 * {@code adaptive.fallback.rung}.
 */
public final class AdaptiveProducerInterceptor implements ProducerInterceptor<Object, Object> {

    private String clientId;
    private InFlightRegistry.Entry entry;

    @Override
    public void configure(Map<String, ?> configs) {
        Object id = configs.get(ProducerConfig.CLIENT_ID_CONFIG);
        if (id == null || id.toString().isEmpty()) {
            throw new ConfigException("AdaptiveProducerInterceptor needs client.id to find its producer's "
                    + "serializer; KafkaProducer always passes it, so configure the interceptor through a producer");
        }
        clientId = id.toString();
        entry = InFlightRegistry.acquire(clientId);
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (entry == null) {
            return;
        }
        boolean failed = exception != null;
        if (entry.keysTracked) {
            entry.keys.acknowledged(metadata == null ? -1 : metadata.serializedKeySize(), failed);
        }
        if (entry.valuesTracked) {
            entry.values.acknowledged(metadata == null ? -1 : metadata.serializedValueSize(), failed);
        }
    }

    @Override
    public void close() {
        if (entry != null) {
            entry = null;
            InFlightRegistry.release(clientId);
        }
    }
}
