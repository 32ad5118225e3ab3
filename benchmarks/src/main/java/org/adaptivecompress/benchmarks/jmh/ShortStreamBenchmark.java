package org.adaptivecompress.benchmarks.jmh;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What one short message costs as a stream of its own: an {@link AdaptiveOutputStream} built,
 * given one 232-byte JSON record and closed (as Hadoop's codec makes one per value of a
 * RECORD-compressed SequenceFile), against the same record ended by
 * {@link AdaptiveOutputStream#finish()} on one stream kept open, and the part of the first that
 * is the engine's: one built, the record compressed as a block at the default controller's first
 * rung (zstd:1, whose native context is made on first use) and closed; and reading such a
 * stream back with an {@link AdaptiveInputStream} of its own. Run with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ShortStreamBenchmark {

    private static final byte[] RECORD = "{\"id\":1,\"event\":\"click\",\"user\":7919,\"ts\":1700000000000}\n"
            .repeat(4).getBytes(StandardCharsets.US_ASCII);

    private final CountingSink sink = new CountingSink();
    private final byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(RECORD.length)];
    private final byte[] readBack = new byte[RECORD.length];
    private AdaptiveOutputStream kept;
    private byte[] recordStream;

    /** The stream the finish() benchmark keeps open, and the record as a stream of its own. */
    @Setup
    public void open() throws IOException {
        kept = new AdaptiveOutputStream(sink);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(bytes)) {
            out.write(RECORD);
        }
        recordStream = bytes.toByteArray();
    }

    /** Closes the kept stream. */
    @TearDown
    public void close() throws IOException {
        kept.close();
    }

    /** A stream of its own for one record. */
    @Benchmark
    public long streamPerRecord() throws IOException {
        try (AdaptiveOutputStream out = new AdaptiveOutputStream(sink)) {
            out.write(RECORD);
        }
        return sink.bytes;
    }

    /** One record, ended by finish() on the kept stream. */
    @Benchmark
    public long finishOnOneStream() throws IOException {
        kept.write(RECORD);
        kept.finish();
        return sink.bytes;
    }

    /** The engine a stream of its own builds, compressing the record and closed. */
    @Benchmark
    public int engineForOneBlock() {
        try (AdaptiveCompressor engine = new AdaptiveCompressor(AdaptiveCompressionOptions.builder().build())) {
            return engine.compressBlock(RECORD, 0, RECORD.length, frame, 0);
        }
    }

    /** A stream of its own for one record, read back. */
    @Benchmark
    public int readStreamPerRecord() throws IOException {
        try (AdaptiveInputStream in = new AdaptiveInputStream(new ByteArrayInputStream(recordStream))) {
            return in.readNBytes(readBack, 0, readBack.length);
        }
    }

    /** Counts what it is given and keeps nothing; closing it is a no-op. */
    private static final class CountingSink extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
