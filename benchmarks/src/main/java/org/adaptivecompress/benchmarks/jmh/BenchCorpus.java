package org.adaptivecompress.benchmarks.jmh;

import java.util.Arrays;
import org.adaptivecompress.testing.DataKind;

/**
 * The micro benchmarks' input: 1 MiB each of text, HTML, JSON events, log lines, a PDF and a
 * protobuf (the compressible kinds of core's test data), cut into blocks of the engine's default
 * 128 KiB.
 */
final class BenchCorpus {

    static final int BLOCK = 128 << 10;
    private static final DataKind[] KINDS = {DataKind.TEXT, DataKind.HTML, DataKind.JSON_EVENTS, DataKind.LOG_LINES,
        DataKind.PDF, DataKind.PROTOBUF};

    private BenchCorpus() {}

    /** The corpus as consecutive blocks of {@link #BLOCK} bytes. */
    static byte[][] blocks() {
        int perKind = 1 << 20;
        byte[][] blocks = new byte[KINDS.length * perKind / BLOCK][];
        int b = 0;
        for (DataKind kind : KINDS) {
            byte[] data = kind.generate(perKind);
            for (int off = 0; off < perKind; off += BLOCK) {
                blocks[b++] = Arrays.copyOfRange(data, off, off + BLOCK);
            }
        }
        return blocks;
    }
}
