package org.adaptivecompress.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.adaptivecompress.engine.CompressionStatistics;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;

/**
 * Adaptive compression as a splittable Hadoop codec: files ending {@value #EXTENSION}, short
 * name {@code adaptive}, configured by the {@code io.compression.codec.adaptive.*} keys of
 * {@link AdaptiveCodecSettings}.
 *
 * <p>Output streams are the adaptive pipeline: a sender thread writes to the underlying stream,
 * so when HDFS or a spill disk pushes back, the FIFO fills and the codec climbs the ladder. The
 * {@link Compressor} and {@link Decompressor} that {@code CodecPool} hands out produce and
 * decode the same frame format. Every block decodes on its own and its header carries a check
 * keyed by the stream's salt, so {@code TextInputFormat} may split the files anywhere.
 */
public class AdaptiveCodec implements SplittableCompressionCodec, Configurable {

    /** The file extension. */
    public static final String EXTENSION = ".adc";

    private Configuration conf;
    private AdaptiveCodecSettings settings = AdaptiveCodecSettings.defaults();

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
        this.settings = AdaptiveCodecSettings.from(conf);
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    /** The settings read from the configuration. */
    public AdaptiveCodecSettings settings() {
        return settings;
    }

    /**
     * What every output stream of this codec's ladder wrote in this JVM, open or closed: they
     * count in the JVM's {@link org.adaptivecompress.metrics.StatisticsGroup#shared shared group}
     * of the ladder, which a Micrometer binder or an MBean can watch. Bare {@code Compressor}s,
     * whose callers drive them block by block, do not count.
     */
    public CompressionStatistics statistics() {
        return settings.streamOptions().statisticsGroup().statistics();
    }

    /**
     * A pipeline stream with this codec's settings. It leases no compressor from
     * {@code CodecPool}, since the pipeline does not use one: a caller that never closes the
     * stream (Flink's bulk writers finish it and close the file themselves) leaks no lease.
     */
    @Override
    public CompressionOutputStream createOutputStream(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out is null");
        return new AdaptiveCompressionOutputStream(out, settings);
    }

    /**
     * A pipeline stream with this codec's settings; the caller keeps ownership of the compressor.
     * The settings come from the codec, not the compressor: SequenceFile and IFile lease with
     * {@code CodecPool.getCompressor(codec)}, which calls {@code reinit(null)}, so a pooled
     * compressor may still carry the settings of another codec instance, while the codec
     * carries the job's configuration.
     */
    @Override
    public CompressionOutputStream createOutputStream(OutputStream out, Compressor compressor) throws IOException {
        Objects.requireNonNull(out, "out is null");
        return new AdaptiveCompressionOutputStream(out, settings);
    }

    @Override
    public Class<? extends Compressor> getCompressorType() {
        return AdaptiveFrameCompressor.class;
    }

    @Override
    public Compressor createCompressor() {
        return new AdaptiveFrameCompressor(settings);
    }

    /** Decodes a whole file (concatenated streams included), leasing a pooled decompressor. */
    @Override
    public CompressionInputStream createInputStream(InputStream in) throws IOException {
        return createInputStream(in, null);
    }

    /**
     * Decodes a whole file with the caller's decompressor, which the caller keeps; with
     * {@code null}, leases one from {@link CodecPool} and returns it on close.
     */
    @Override
    public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
        Objects.requireNonNull(in, "in is null");
        return open(in, decompressor, positionOf(in), Long.MAX_VALUE, READ_MODE.CONTINUOUS);
    }

    /**
     * Decodes the units that start in {@code [start, end)} with the caller's decompressor, which
     * the caller keeps; with {@code null}, leases one from {@link CodecPool} and returns it on close.
     */
    @Override
    public SplitCompressionInputStream createInputStream(InputStream seekableIn, Decompressor decompressor,
            long start, long end, READ_MODE readMode) throws IOException {
        Objects.requireNonNull(seekableIn, "seekableIn is null");
        if (!(seekableIn instanceof Seekable)) {
            throw new IOException("seekableIn must be Seekable, got " + seekableIn.getClass().getName());
        }
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("split [" + start + ", " + end + ") is not a range");
        }
        ((Seekable) seekableIn).seek(start);
        return open(seekableIn, decompressor, start, end, readMode);
    }

    /**
     * A stream over {@code decompressor}, or without one over a pooled decompressor that the
     * stream returns on close: its zstd contexts are native and have no cleaner, so one made
     * here and dropped with the stream would leak.
     */
    private AdaptiveSplitInputStream open(InputStream in, Decompressor decompressor, long start, long end,
            READ_MODE readMode) throws IOException {
        if (decompressor != null) {
            return new AdaptiveSplitInputStream(in, adaptive(decompressor), false, settings,
                    start, end, readMode);
        }
        Decompressor leased = CodecPool.getDecompressor(this);
        try {
            return new AdaptiveSplitInputStream(in, adaptive(leased), true, settings,
                    start, end, readMode);
        } catch (IOException | RuntimeException e) {
            CodecPool.returnDecompressor(leased);
            throw e;
        }
    }

    private static AdaptiveFrameDecompressor adaptive(Decompressor decompressor) {
        if (!(decompressor instanceof AdaptiveFrameDecompressor)) {
            throw new IllegalArgumentException("the adaptive codec needs an " + AdaptiveFrameDecompressor.class.getName()
                    + ", got " + decompressor.getClass().getName());
        }
        return (AdaptiveFrameDecompressor) decompressor;
    }

    private static long positionOf(InputStream in) throws IOException {
        return in instanceof Seekable ? ((Seekable) in).getPos() : 0L;
    }

    @Override
    public Class<? extends Decompressor> getDecompressorType() {
        return AdaptiveFrameDecompressor.class;
    }

    @Override
    public Decompressor createDecompressor() {
        return new AdaptiveFrameDecompressor(settings);
    }

    @Override
    public String getDefaultExtension() {
        return EXTENSION;
    }
}
