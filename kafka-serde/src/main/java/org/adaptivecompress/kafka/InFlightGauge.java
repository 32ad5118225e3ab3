package org.adaptivecompress.kafka;

/**
 * Bytes one side (keys or values) of one producer has serialized and not yet seen acknowledged:
 * the FIFO of AdOC for Kafka. The serializer adds each frame it returns; the interceptor removes
 * it when the broker acknowledges the record or the send fails. Thread-safe.
 *
 * <p>A failed send whose size Kafka no longer reports (metadata of -1) is removed at the average
 * in-flight size, and the gauge never goes below zero, so errors cannot make it drift far.
 */
final class InFlightGauge {

    private long bytes;
    private long records;
    private long acknowledgedBytes;
    private long serializedBytes;

    synchronized void added(int frameLength) {
        bytes += frameLength;
        records++;
        serializedBytes += frameLength;
    }

    /**
     * One record of this side left the producer.
     *
     * @param serializedSize its size as {@code RecordMetadata} reports it, -1 if unknown
     * @param failed whether the send failed (an unknown size then still means one of ours left)
     */
    synchronized void acknowledged(int serializedSize, boolean failed) {
        long size;
        if (serializedSize >= 0) {
            size = serializedSize;
        } else if (failed && records > 0) {
            size = bytes / records;
        } else {
            return; // a null key or value: the serializer never counted it
        }
        bytes = Math.max(0, bytes - size);
        records = Math.max(0, records - 1);
        acknowledgedBytes += size;
    }

    /** Bytes serialized and not yet acknowledged. */
    synchronized long bytes() {
        return bytes;
    }

    /** Bytes serialized since the producer started. */
    synchronized long serializedBytes() {
        return serializedBytes;
    }

    /** Bytes acknowledged (or failed) since the producer started: the link's "drained" count. */
    synchronized long acknowledgedBytes() {
        return acknowledgedBytes;
    }
}
