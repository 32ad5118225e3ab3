package org.adaptivecompress.benchmarks.jmh;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the reading side of a stream costs a receiver per byte, with no network in the way: 32 MiB
 * of JSON read from memory, as plain bytes ({@code plain}) and through
 * {@link AdaptiveInputStream} from a stream written at one fixed rung. {@link #read} reads it in
 * {@link #readLength} pieces: in 64 KiB ones (the link benchmark's receiver reads so), at
 * {@code raw} the difference from {@code plain} is the frame path alone (header checks, one
 * copy, CRC32C), the work the unthrottled loopback cells add to the receiving thread, and at
 * {@code lz4} a decoder's work is added to it; in 1 MiB ones each block is decoded straight into
 * the caller's array, without the copy. {@link #transferTo} hands the stream to
 * {@link InputStream#transferTo} (at {@code plain}, {@link ByteArrayInputStream} writes its
 * whole array at once, so it costs next to nothing). Milliseconds per 32 MiB read.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class StreamReadBenchmark {

    /** {@code plain} bytes, or a stream written at this rung (the default ladder's first two). */
    @Param({"plain", "raw", "lz4"})
    public String stream;

    /** The length of each read of {@link #read}: 64 KiB, or 1 MiB, longer than a block. */
    @Param({"65536", "1048576"})
    public int readLength;

    private static final int INPUT = 32 << 20;

    private byte[] plain;
    /** What is read: the plain bytes, or the stream written at the rung. */
    private byte[] source;
    private byte[] buffer;

    /** Generates the input and writes it once as a stream at the rung. */
    @Setup
    public void setUp() throws IOException {
        buffer = new byte[readLength];
        plain = DataKind.JSON_EVENTS.generate(INPUT);
        if (stream.equals("plain")) {
            source = plain;
            return;
        }
        int rung = stream.equals("raw") ? 0 : 1; // their places on the default ladder
        ByteArrayOutputStream sink = new ByteArrayOutputStream(INPUT + (1 << 20));
        try (OutputStream out = AdaptiveOutputStream.builder().controller("fixed:" + rung).build(sink)) {
            out.write(plain);
        }
        source = sink.toByteArray();
    }

    /** The whole input read: as it is, or decoded and verified. */
    @Benchmark
    public long read() throws IOException {
        return drain(open());
    }

    /**
     * The whole input handed to a sink that counts it, through {@link InputStream#transferTo}
     * (the same at either {@link #readLength}).
     */
    @Benchmark
    public long transferTo() throws IOException {
        CountingSink sink = new CountingSink();
        try (InputStream in = open()) {
            in.transferTo(sink);
        }
        return sink.count;
    }

    private InputStream open() {
        InputStream bytes = new ByteArrayInputStream(source);
        return stream.equals("plain") ? bytes : new AdaptiveInputStream(bytes);
    }

    private long drain(InputStream in) throws IOException {
        long total = 0;
        try (in) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                total += n + buffer[n - 1];
            }
        }
        return total;
    }

    /** Counts and touches what it is given, so the writes are not optimized away. */
    private static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count += 1 + b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len == 0 ? 0 : len + b[off + len - 1];
        }
    }
}
