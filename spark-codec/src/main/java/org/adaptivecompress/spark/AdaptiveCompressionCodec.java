package org.adaptivecompress.spark;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.metrics.StatisticsGroup;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.apache.spark.SparkConf;
import org.apache.spark.io.CompressionCodec;

/**
 * Spark's compression codec for shuffle, broadcast, spill and cached RDD blocks, by class name:
 * {@code spark.io.compression.codec=org.adaptivecompress.spark.AdaptiveCompressionCodec}. Each
 * stream Spark opens is an {@link AdaptiveOutputStream} whose rung follows how fast the stream's
 * sink takes the bytes, read back by an {@link AdaptiveInputStream}.
 *
 * <p>Settings, from the {@link SparkConf} (every executor reads its own):
 * <ul>
 *   <li>{@value #LADDER}: the ladder spec, default {@code raw,lz4,zstd:1,zstd:3,zstd:9,zstd:15,xz:6};
 *   <li>{@value #CONTROLLER}: {@code fixed:2} by default (the ladder's third rung, zstd:1, or its
 *       top if it has fewer), or {@code model}, {@code adoc}, {@code fixed:N};
 *   <li>{@value #OBJECTIVE}: what {@code model} optimises: {@code time} (the default),
 *       {@code cpu-budget:S} or {@code cost:egress=E,cpu=C[,decode=D][,floor=R]};
 *   <li>{@value #BLOCK_SIZE}: bytes per block, default 128 KiB (Spark's size syntax, such as {@code 64k});
 *   <li>{@value #FIFO_CAPACITY}: bytes queued between a stream's compressor and its sender
 *       thread, default 256 KiB, since Spark keeps up to 200 shuffle streams open at once;
 *   <li>{@value #MAX_WORKERS}: threads one stream may compress on, default 1.
 * </ul>
 *
 * <p>Why a fixed rung by default: Spark writes shuffle and spill files to local disk (its page
 * cache, faster than any codec) and sends them later as they are, so a controller that follows
 * the sink would store much of the shuffle raw, for a network it never sees. At a fixed rung
 * the codec still stores incompressible blocks raw without trying them. {@code model} pays where
 * the stream's sink is the bottleneck, as with shuffle storage on the network (docs/spark.md).
 *
 * <p>Every stream counts in the JVM's {@link StatisticsGroup#shared shared group} of its ladder,
 * {@link #statistics()}.
 */
public final class AdaptiveCompressionCodec implements CompressionCodec {

    /** The ladder spec. */
    public static final String LADDER = "spark.io.compression.adaptive.ladder";
    /** The controller by name. */
    public static final String CONTROLLER = "spark.io.compression.adaptive.controller";
    /** What the model controller optimises. */
    public static final String OBJECTIVE = "spark.io.compression.adaptive.objective";
    /** Bytes per block. */
    public static final String BLOCK_SIZE = "spark.io.compression.adaptive.blockSize";
    /** Bytes queued between a stream's compressor and its sender thread. */
    public static final String FIFO_CAPACITY = "spark.io.compression.adaptive.fifoCapacity";
    /** The default of {@link #FIFO_CAPACITY}: two blocks. */
    public static final int DEFAULT_FIFO_CAPACITY = 256 * 1024;
    /** Threads one stream may compress on. */
    public static final String MAX_WORKERS = "spark.io.compression.adaptive.maxWorkers";

    private final AdaptiveCompressionOptions options;
    private final int maxWorkers;
    private final int fifoCapacity;

    /**
     * The codec Spark creates with its configuration.
     *
     * @throws IllegalArgumentException naming the key, if a setting is not valid
     */
    public AdaptiveCompressionCodec(SparkConf conf) {
        Objects.requireNonNull(conf, "conf is null");
        AdaptiveCompressionOptions.Builder b = AdaptiveCompressionOptions.builder();
        Ladder ladder;
        try {
            ladder = Ladder.parse(conf.get(LADDER, Ladder.DEFAULT_SPEC));
            b.ladder(ladder);
        } catch (IllegalArgumentException e) {
            throw invalid(LADDER, conf, e);
        }
        try {
            b.controller(conf.get(CONTROLLER, "fixed:" + Math.min(2, ladder.top())));
        } catch (IllegalArgumentException e) {
            throw invalid(CONTROLLER, conf, e);
        }
        try {
            long blockSize = conf.getSizeAsBytes(BLOCK_SIZE, String.valueOf(AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE));
            b.blockSize((int) Math.min(Integer.MAX_VALUE, blockSize));
        } catch (IllegalArgumentException e) {
            throw invalid(BLOCK_SIZE, conf, e);
        }
        try {
            maxWorkers = conf.getInt(MAX_WORKERS, 1);
            if (maxWorkers < 1 || maxWorkers > AdaptiveOutputStream.MAX_WORKERS) {
                throw new IllegalArgumentException("must be from 1 to " + AdaptiveOutputStream.MAX_WORKERS);
            }
        } catch (IllegalArgumentException e) {
            throw invalid(MAX_WORKERS, conf, e);
        }
        try {
            fifoCapacity = (int) Math.min(Integer.MAX_VALUE, conf.getSizeAsBytes(FIFO_CAPACITY,
                    String.valueOf(DEFAULT_FIFO_CAPACITY)));
            AdaptiveOutputStream.builder().fifoCapacity(fifoCapacity);
        } catch (IllegalArgumentException e) {
            throw invalid(FIFO_CAPACITY, conf, e);
        }
        try {
            b.objective(conf.get(OBJECTIVE, "time"));
        } catch (IllegalArgumentException e) {
            throw invalid(OBJECTIVE, conf, e);
        }
        AdaptiveCompressionOptions unchecked;
        try {
            unchecked = b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CONTROLLER + ", " + OBJECTIVE + " or " + LADDER + ": " + e.getMessage(), e);
        }
        this.options = unchecked.toBuilder().statisticsGroup(StatisticsGroup.shared(unchecked.ladder())).build();
    }

    private static IllegalArgumentException invalid(String key, SparkConf conf, IllegalArgumentException cause) {
        return new IllegalArgumentException(key + "=" + conf.get(key, "") + " is not valid: " + cause.getMessage(), cause);
    }

    @Override
    public OutputStream compressedOutputStream(OutputStream s) {
        return AdaptiveOutputStream.builder().compression(options).fifoCapacity(fifoCapacity).maxWorkers(maxWorkers)
                .build(s);
    }

    @Override
    public InputStream compressedInputStream(InputStream s) {
        return AdaptiveInputStream.builder().maxBlockLength(Math.max(options.maxBlockSize(),
                FrameFormat.DEFAULT_MAX_BLOCK_LENGTH)).build(s);
    }

    /**
     * Every stream this JVM's codecs of this codec's ladder wrote, open or closed: what the
     * executor (or the driver) compressed, block by block.
     */
    public CompressionStatistics statistics() {
        return options.statisticsGroup().statistics();
    }
}
