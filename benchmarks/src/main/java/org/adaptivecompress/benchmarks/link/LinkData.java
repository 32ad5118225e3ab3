package org.adaptivecompress.benchmarks.link;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.testing.DataKind;

/** The data the link benchmark sends, built from core's deterministic {@link DataKind}s. */
public enum LinkData {
    /** JSON events like Kafka records. */
    JSON(DataKind.JSON_EVENTS),
    /** English prose. */
    TEXT(DataKind.TEXT),
    /** Binaries: a PDF, a JPEG and a protobuf in turn, 64 KiB each. */
    BINARY(DataKind.PDF, DataKind.JPEG, DataKind.PROTOBUF),
    /** Incompressible random bytes. */
    RANDOM(DataKind.RANDOM),
    /** Changes kind every quarter of the input (2 MiB at the largest size): JSON, random, text, binaries. */
    CHANGING(DataKind.JSON_EVENTS, DataKind.RANDOM, DataKind.TEXT, DataKind.PDF);

    private static final int BINARY_SEGMENT = 64 << 10;

    private final DataKind[] parts;

    LinkData(DataKind... parts) {
        this.parts = parts;
    }

    /** The lower-case name used on the command line and in the tables. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code size} bytes of this data, the same every call. */
    public byte[] generate(int size) {
        if (parts.length == 1) {
            return parts[0].generate(size);
        }
        int segment = this == CHANGING ? changePeriod(size) : BINARY_SEGMENT;
        byte[][] sources = new byte[parts.length][];
        for (int k = 0; k < parts.length; k++) {
            sources[k] = parts[k].generate(size);
        }
        byte[] out = new byte[size];
        for (int i = 0, k = 0; i < size; i += segment, k++) {
            int n = Math.min(segment, size - i);
            System.arraycopy(sources[k % parts.length], i, out, i, n);
        }
        return out;
    }

    /**
     * Where {@link #CHANGING} data of {@code size} bytes changes kind: one segment per kind, all
     * sent at {@code bytesPerSecond}.
     */
    public List<PerSegmentBest.Segment> stretches(int size, long bytesPerSecond) {
        if (this != CHANGING) {
            throw new IllegalStateException(label() + " data does not change kind");
        }
        List<PerSegmentBest.Segment> segments = new ArrayList<>();
        for (int from = 0, period = changePeriod(size); from < size; from += period) {
            segments.add(new PerSegmentBest.Segment(from, Math.min(size, from + period), bytesPerSecond));
        }
        return segments;
    }

    private int changePeriod(int size) {
        return Math.max(1, (size + parts.length - 1) / parts.length);
    }

    /** The data named {@code name} (case-insensitive). */
    public static LinkData byName(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown data kind '" + name + "'; expected json, text, binary, random"
                    + " or changing", e);
        }
    }
}
