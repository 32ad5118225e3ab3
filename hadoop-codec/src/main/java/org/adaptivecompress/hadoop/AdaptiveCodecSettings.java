package org.adaptivecompress.hadoop;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.metrics.StatisticsGroup;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The {@code io.compression.codec.adaptive.*} keys and the settings read from them. Immutable;
 * a bad value fails at once with the key's name in the message.
 */
public final class AdaptiveCodecSettings {

    /** Prefix of every key. */
    public static final String PREFIX = "io.compression.codec.adaptive.";
    /** Ladder spec, e.g. {@code raw,lz4,zstd:3,xz:6}; default {@link Ladder#DEFAULT_SPEC}. */
    public static final String LADDER_KEY = PREFIX + "ladder";
    /**
     * Controller of the codec's output streams: {@code model} (default, the library's
     * default, {@link LevelControllers#DEFAULT_NAME}), {@code adoc} or {@code fixed:N}.
     */
    public static final String CONTROLLER_KEY = PREFIX + "controller";
    /**
     * What the controller of the codec's output streams optimises: {@code time} (default),
     * {@code cpu-budget:S} or {@code cost:egress=E,cpu=C[,decode=D][,floor=R]}
     * ({@link org.adaptivecompress.control.Objective}); only the {@code model} controller takes
     * another than time.
     */
    public static final String OBJECTIVE_KEY = PREFIX + "objective";
    /**
     * Controller of a bare {@link org.apache.hadoop.io.compress.Compressor} driven by the
     * caller (e.g. through {@code CompressorStream}). Such a compressor hands every frame to
     * its caller at once, so it has no FIFO and no sink for an adaptive controller to read
     * (AdOC's rule would never leave raw); hence a fixed rung by default.
     */
    public static final String COMPRESSOR_CONTROLLER_KEY = PREFIX + "compressor.controller";
    /**
     * Default of {@link #COMPRESSOR_CONTROLLER_KEY}: the ladder's first compressing rung
     * ({@code fixed:0} on a ladder of raw alone).
     */
    public static final String DEFAULT_COMPRESSOR_CONTROLLER = "fixed:1";
    /** Bytes of input per block; default 128 KiB. */
    public static final String BLOCK_SIZE_KEY = PREFIX + "block.size";
    /** Capacity in bytes of the FIFO between compressor and sender thread; default 1 MiB. */
    public static final String FIFO_CAPACITY_KEY = PREFIX + "fifo.capacity";
    /**
     * Whether zstd and xz blocks match across blocks, up to {@link #HISTORY_WINDOW_KEY} bytes back
     * and never across a reset point ({@link #RESET_INTERVAL_KEY}), so that files still split.
     * Unset, on for a fixed rung ({@code fixed:N}) and off for a controller that adapts, where
     * on the benchmark's data histories changed the time by a few percent either way, which does
     * not repay a reader's memory for them.
     */
    public static final String HISTORY_KEY = PREFIX + "history";
    /**
     * The largest window a history keeps, a power of two from 1 MiB to 64 MiB; default 8 MiB.
     * Each rung keeps its level's native window up to it (2 MiB at zstd:3, 4 MiB at zstd:9).
     */
    public static final String HISTORY_WINDOW_KEY = PREFIX + "history.window";
    /**
     * Content bytes between reset points, where a split reader can start in a file written
     * with histories; default {@value #DEFAULT_RESET_INTERVAL}. A split reads on past its end to
     * the next reset point, so larger values cost split readers more and save a little space.
     */
    public static final String RESET_INTERVAL_KEY = PREFIX + "reset.interval";
    /** Default of {@link #RESET_INTERVAL_KEY}: 8 MiB, {@link AdaptiveCompressionOptions#FILE_RESET_INTERVAL}. */
    public static final long DEFAULT_RESET_INTERVAL = AdaptiveCompressionOptions.FILE_RESET_INTERVAL;
    /**
     * A reader's ceiling on the history window a file may declare, a power of two from 1 MiB to
     * 64 MiB; default 8 MiB. A file over it fails with {@code DecompressionLimitException}.
     */
    public static final String MAX_WINDOW_KEY = PREFIX + "max.window";
    /**
     * A reader's ceiling on a block's declared lengths, checked before it allocates; default
     * 4 MiB or {@link #BLOCK_SIZE_KEY}, whichever is larger. A value below the block size is
     * refused. The codec's streams, whose blocks grow while the link bounds them, grow no
     * longer than this.
     */
    public static final String MAX_BLOCK_LENGTH_KEY = PREFIX + "max.block.length";
    /**
     * The most bytes a reader decodes one stream (a file, or a stream of a concatenated file) to;
     * a block that would pass it fails with {@code DecompressionLimitException} before it is
     * decoded. Unset, no limit.
     */
    public static final String MAX_STREAM_BYTES_KEY = PREFIX + "max.stream.bytes";
    /**
     * The most times a block's length may be its payload's; a block declaring more fails with
     * {@code DecompressionLimitException} before it is decoded. Unset, no limit.
     */
    public static final String MAX_EXPANSION_RATIO_KEY = PREFIX + "max.expansion.ratio";

    /**
     * A class implementing {@link DecisionListener} with a public no-argument constructor (or a
     * {@code Configurable} one), told every decision of the controller of every stream and
     * compressor of the codec. One instance is made each time settings are read from a
     * configuration (when the codec is configured, and when a pooled compressor is re-initialised
     * with one), shared by the streams and compressors made from those settings on any thread, so
     * it must be thread-safe. Unset, none.
     */
    public static final String DECISION_LISTENER_KEY = PREFIX + "decision.listener";

    private static final AdaptiveCodecSettings DEFAULTS = from(new Configuration(false));

    private final AdaptiveCompressionOptions streamOptions;
    private final AdaptiveCompressionOptions compressorOptions;
    private final int fifoCapacity;
    private final int maxBlockLength;
    private final long maxStreamBytes;
    private final long maxExpansionRatio;
    private final int maxWindowLog;

    private AdaptiveCodecSettings(AdaptiveCompressionOptions streamOptions, AdaptiveCompressionOptions compressorOptions,
            int fifoCapacity, int maxBlockLength, long maxStreamBytes, long maxExpansionRatio, int maxWindowLog) {
        this.streamOptions = streamOptions;
        this.compressorOptions = compressorOptions;
        this.fifoCapacity = fifoCapacity;
        this.maxBlockLength = maxBlockLength;
        this.maxStreamBytes = maxStreamBytes;
        this.maxExpansionRatio = maxExpansionRatio;
        this.maxWindowLog = maxWindowLog;
    }

    /** The settings with every key at its default. */
    public static AdaptiveCodecSettings defaults() {
        return DEFAULTS;
    }

    /** Reads the keys from {@code conf}; {@code null} means all defaults. */
    public static AdaptiveCodecSettings from(Configuration conf) {
        if (conf == null) {
            return DEFAULTS;
        }
        String ladderSpec = conf.getTrimmed(LADDER_KEY, Ladder.DEFAULT_SPEC);
        Ladder ladder = parse(LADDER_KEY, ladderSpec, () -> Ladder.parse(ladderSpec));
        int blockSize = conf.getInt(BLOCK_SIZE_KEY, AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE);
        DecisionListener listener = decisionListener(conf);
        AdaptiveCompressionOptions sized = parse(BLOCK_SIZE_KEY, String.valueOf(blockSize),
                () -> AdaptiveCompressionOptions.builder().ladder(ladder).blockSize(blockSize).listener(listener).build());
        int window = conf.getInt(HISTORY_WINDOW_KEY, AdaptiveCompressionOptions.defaults().historyWindow());
        AdaptiveCompressionOptions windowed = parse(HISTORY_WINDOW_KEY, String.valueOf(window),
                () -> sized.toBuilder().historyWindow(window).build());
        long interval = conf.getLong(RESET_INTERVAL_KEY, DEFAULT_RESET_INTERVAL);
        // Reset points keep files with histories splittable: a split reader starts at one.
        AdaptiveCompressionOptions base = parse(RESET_INTERVAL_KEY, String.valueOf(interval),
                () -> windowed.toBuilder().resetInterval(interval).build());
        String controller = conf.getTrimmed(CONTROLLER_KEY, LevelControllers.DEFAULT_NAME);
        AdaptiveCompressionOptions controlled = parse(CONTROLLER_KEY, controller,
                () -> base.toBuilder().controller(controller).history(history(conf, controller)).build());
        String objective = conf.getTrimmed(OBJECTIVE_KEY, "time");
        AdaptiveCompressionOptions stream = parse(OBJECTIVE_KEY, objective,
                () -> controlled.toBuilder().objective(objective).statisticsGroup(StatisticsGroup.shared(ladder))
                        .build());
        String compressorController = conf.getTrimmed(COMPRESSOR_CONTROLLER_KEY,
                ladder.top() == 0 ? "fixed:0" : DEFAULT_COMPRESSOR_CONTROLLER);
        AdaptiveCompressionOptions compressor = parse(COMPRESSOR_CONTROLLER_KEY, compressorController,
                () -> base.toBuilder().controller(compressorController).history(history(conf, compressorController))
                        .build());
        int fifo = conf.getInt(FIFO_CAPACITY_KEY, AdaptiveOutputStream.DEFAULT_FIFO_CAPACITY);
        parse(FIFO_CAPACITY_KEY, String.valueOf(fifo), () -> AdaptiveOutputStream.builder().fifoCapacity(fifo));
        int maxBlock = maxBlockLength(conf, blockSize);
        long maxStream = conf.getLong(MAX_STREAM_BYTES_KEY, FrameParser.UNLIMITED);
        long maxRatio = conf.getLong(MAX_EXPANSION_RATIO_KEY, FrameParser.UNLIMITED);
        if (maxStream < 0 || maxRatio < 1) {
            throw new IllegalArgumentException(MAX_STREAM_BYTES_KEY + "=" + maxStream + " and " + MAX_EXPANSION_RATIO_KEY
                    + "=" + maxRatio + ": a stream limit must not be negative, a ratio must be at least 1");
        }
        int maxWindow = conf.getInt(MAX_WINDOW_KEY, 1 << FrameFormat.DEFAULT_MAX_WINDOW_LOG);
        int maxWindowLog = parse(MAX_WINDOW_KEY, String.valueOf(maxWindow), () -> FrameFormat.checkWindowSize(maxWindow));
        if ((stream.history() || compressor.history()) && window > maxWindow) {
            throw new IllegalArgumentException(HISTORY_WINDOW_KEY + "=" + window + " is over " + MAX_WINDOW_KEY + "="
                    + maxWindow + ": the codec's readers would refuse the files it writes; raise " + MAX_WINDOW_KEY
                    + " or lower " + HISTORY_WINDOW_KEY);
        }
        // Blocks grow no longer than the codec's own readers accept.
        AdaptiveCompressionOptions readable = stream.maxBlockSize() <= maxBlock ? stream
                : stream.toBuilder().maxBlockSize(maxBlock).build();
        return new AdaptiveCodecSettings(readable, compressor, fifo, maxBlock, maxStream, maxRatio, maxWindowLog);
    }

    /**
     * {@link #HISTORY_KEY} if set; else on for a fixed rung and off for a controller that
     * adapts, as in the library (see {@link #HISTORY_KEY}).
     */
    private static boolean history(Configuration conf, String controller) {
        return conf.getBoolean(HISTORY_KEY, LevelControllers.fixedRung(controller) >= 0);
    }

    /** A new {@link #DECISION_LISTENER_KEY} listener, or {@link DecisionListener#NONE}. */
    private static DecisionListener decisionListener(Configuration conf) {
        Class<? extends DecisionListener> type = parse(DECISION_LISTENER_KEY, conf.getTrimmed(DECISION_LISTENER_KEY),
                () -> conf.getClass(DECISION_LISTENER_KEY, null, DecisionListener.class));
        return type == null ? DecisionListener.NONE : ReflectionUtils.newInstance(type, conf);
    }

    /**
     * The reader's ceiling, never below the block size, so that the codec reads every file it
     * writes. Unset, it is the larger of the format's default and the block size (as the Netty
     * handlers' {@code AdaptiveCompression.addTo} does); set below the block size, it is refused,
     * since every full block written with these settings would then fail to read.
     */
    private static int maxBlockLength(Configuration conf, int blockSize) {
        if (conf.getTrimmed(MAX_BLOCK_LENGTH_KEY) == null) {
            return Math.max(FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, blockSize);
        }
        int maxBlock = conf.getInt(MAX_BLOCK_LENGTH_KEY, FrameFormat.DEFAULT_MAX_BLOCK_LENGTH);
        parse(MAX_BLOCK_LENGTH_KEY, String.valueOf(maxBlock), () -> FrameFormat.checkMaxBlockLength(maxBlock));
        if (maxBlock < blockSize) {
            throw new IllegalArgumentException(MAX_BLOCK_LENGTH_KEY + "=" + maxBlock + " is below " + BLOCK_SIZE_KEY
                    + "=" + blockSize + ": the codec's readers would reject the blocks it writes with"
                    + " OversizedBlockException; raise " + MAX_BLOCK_LENGTH_KEY + " to at least " + blockSize
                    + " (or unset it), or lower " + BLOCK_SIZE_KEY);
        }
        return maxBlock;
    }

    private static <T> T parse(String key, String value, java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad value '" + value + "' for " + key + ": " + e.getMessage(), e);
        }
    }

    /** Options of the codec's output streams (ladder, {@link #CONTROLLER_KEY} controller, block size). */
    public AdaptiveCompressionOptions streamOptions() {
        return streamOptions;
    }

    /** Options of a bare compressor ({@link #COMPRESSOR_CONTROLLER_KEY} controller). */
    public AdaptiveCompressionOptions compressorOptions() {
        return compressorOptions;
    }

    /** FIFO capacity in bytes. */
    public int fifoCapacity() {
        return fifoCapacity;
    }

    /** A reader's ceiling on a block's lengths. */
    public int maxBlockLength() {
        return maxBlockLength;
    }

    /** A parser with the readers' ceiling and limits, over {@code decoder}. */
    FrameParser newParser(BlockDecoder decoder) {
        return new FrameParser(decoder, maxBlockLength).limit(maxStreamBytes, maxExpansionRatio)
                .maxWindowLog(maxWindowLog);
    }

    @Override
    public String toString() {
        return "AdaptiveCodecSettings{ladder=" + streamOptions.ladder() + ", blockSize=" + streamOptions.blockSize()
                + ", fifoCapacity=" + fifoCapacity + ", maxBlockLength=" + maxBlockLength + "}";
    }
}
