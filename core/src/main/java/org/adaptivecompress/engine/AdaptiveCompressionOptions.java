package org.adaptivecompress.engine;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.internal.codec.NativeWindows;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.metrics.StatisticsGroup;

/**
 * How an {@link AdaptiveCompressor} compresses: the ladder, the controller, the block size,
 * whether zstd and xz rungs keep a history across blocks (with its window and reset points), an
 * optional listener told every decision, and an optional group whose statistics count the stream.
 * Immutable; shared by every integration.
 */
public final class AdaptiveCompressionOptions {

    /**
     * Default block size, 128 KiB: large enough for zstd and LZMA2 to reach most of their ratio
     * on the corpus (see docs/LADDER.md), small enough that the controller decides every
     * millisecond on a gigabit link. AdOC used 200 KB buffers.
     */
    public static final int DEFAULT_BLOCK_SIZE = 128 * 1024;
    /** Smallest block size accepted: below this, the 28-byte block header dominates. */
    public static final int MIN_BLOCK_SIZE = 256;
    /**
     * Default longest block, 1 MiB, that blocks grow to while the link bounds the stream: zstd
     * blocks of 1 MiB alone write 3-6 % fewer bytes of mixed data than blocks of 128 KiB, within
     * 1 % of native streaming zstd (docs/PERFORMANCE.md, "Blocks that follow the link"), and a
     * reader holds a block and its frame.
     */
    public static final int DEFAULT_MAX_BLOCK_SIZE = 1 << 20;
    /**
     * The reset interval files are written with by default (the Hadoop codec, the CLI), 8 MiB:
     * a split reader reads at most this much past its split's end, and the reset points cost
     * 0.7 % of the bytes against one every 64 MiB (docs/PERFORMANCE.md, "Wire bytes against the
     * native tools").
     */
    public static final long FILE_RESET_INTERVAL = 8L << 20;

    private static final AdaptiveCompressionOptions DEFAULTS = builder().build();

    private final Ladder ladder;
    private final Supplier<? extends LevelController> controllerFactory;
    private final int blockSize;
    /** As set, 0 for the default: see {@link Builder#maxBlockSize(int)}. */
    private final int maxBlockSizeSet;
    private final DecisionListener listener;
    private final boolean history;
    private final int historyWindow;
    private final long resetInterval;
    private final StatisticsGroup statisticsGroup;
    private final Objective objective;
    /** The rung a {@code fixed:N} controller named in a string pins, or -1. */
    private final int namedFixedRung;

    private AdaptiveCompressionOptions(Builder b) {
        this.ladder = b.ladder;
        this.controllerFactory = b.controllerFactory;
        this.blockSize = b.blockSize;
        this.maxBlockSizeSet = b.maxBlockSize;
        this.listener = b.listener;
        this.history = b.history;
        this.historyWindow = b.historyWindow;
        this.resetInterval = b.resetInterval;
        this.statisticsGroup = b.statisticsGroup;
        this.objective = b.objective;
        this.namedFixedRung = b.namedFixedRung;
    }

    /** The default ladder, the default controller and 128 KiB blocks, growing to 1 MiB while the link bounds the stream. */
    public static AdaptiveCompressionOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ladder = ladder;
        b.controllerFactory = controllerFactory;
        b.blockSize = blockSize;
        b.maxBlockSize = maxBlockSizeSet;
        b.listener = listener;
        b.history = history;
        b.historyWindow = historyWindow;
        b.resetInterval = resetInterval;
        b.statisticsGroup = statisticsGroup;
        b.objective = objective;
        b.namedFixedRung = namedFixedRung;
        return b;
    }

    /**
     * These options narrowed to what a receiver accepts, for a writer with one history per rung:
     * see {@link #within(ReceiverBudget, int)}.
     */
    public AdaptiveCompressionOptions within(ReceiverBudget budget) {
        return within(budget, 1);
    }

    /**
     * These options narrowed to what a receiver accepts: only the rungs it {@linkplain
     * ReceiverBudget#admits admits} (raw always is), blocks no longer than its limit, and
     * histories only with a window no larger than its limit and few enough to fit its memory
     * limit: the window halves until a history for each zstd and xz rung, for each of
     * {@code workers} compressing threads, fits, and histories are dropped if none does (or
     * where the budget takes none). A controller named {@code fixed:N} moves to the highest
     * admitted rung at or below rung N; a controller given as an object chooses from the
     * narrowed ladder. Options already inside the budget keep every setting.
     */
    public AdaptiveCompressionOptions within(ReceiverBudget budget, int workers) {
        Objects.requireNonNull(budget, "budget is null");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        Ladder admitted = budget.admitted(ladder);
        Builder b = toBuilder();
        b.ladder = admitted;
        b.blockSize = Math.min(blockSize, budget.maxBlockLength());
        b.maxBlockSize = Math.min(maxBlockSize(), budget.maxBlockLength());
        int fixedRung = namedFixedRung >= 0 ? budget.admittedRung(ladder, namedFixedRung) : -1;
        if (history) {
            int histories = (int) Math.min(FrameFormat.MAX_HISTORIES, (long) historyRungs(admitted) * workers);
            int window = Math.min(historyWindow, budget.maxWindow());
            while (window >= 1 << FrameFormat.MIN_WINDOW_LOG
                    && budget.historiesWithin(streamWindow(admitted, fixedRung, window)) < histories) {
                window >>= 1;
            }
            b.history = histories > 0 && window >= 1 << FrameFormat.MIN_WINDOW_LOG;
            b.historyWindow = b.history ? window : historyWindow;
        }
        if (fixedRung >= 0) {
            b.controller("fixed:" + fixedRung);
        }
        return b.build();
    }

    /** See {@link #streamWindow()}; {@code fixedRung} -1 for any rung of the ladder. */
    private static int streamWindow(Ladder ladder, int fixedRung, int historyWindow) {
        List<Rung> rungs = fixedRung >= 0 ? List.of(ladder.rung(fixedRung)) : ladder.rungs();
        return 1 << NativeWindows.streamWindowLog(rungs, Integer.numberOfTrailingZeros(historyWindow));
    }

    private static int historyRungs(Ladder ladder) {
        int n = 0;
        for (Rung rung : ladder.rungs()) {
            n += rung.codec().hasHistory() ? 1 : 0;
        }
        return n;
    }

    /** The rungs the controller chooses from. */
    public Ladder ladder() {
        return ladder;
    }

    /** Makes one controller per stream. */
    public Supplier<? extends LevelController> controllerFactory() {
        return controllerFactory;
    }

    /**
     * Bytes of input per block; a controller that follows the link (the default) grows blocks
     * up to {@link #maxBlockSize()} while the link, not the writer, bounds the stream.
     */
    public int blockSize() {
        return blockSize;
    }

    /**
     * The longest block a stream writes: what its blocks grow to while the link bounds it (see
     * {@link Builder#maxBlockSize(int)}), and so the block length its readers must accept.
     */
    public int maxBlockSize() {
        return maxBlockSizeSet > 0 ? maxBlockSizeSet : Math.max(blockSize, DEFAULT_MAX_BLOCK_SIZE);
    }

    /** Told every decision of the controller; {@link DecisionListener#NONE} by default. */
    public DecisionListener listener() {
        return listener;
    }

    /**
     * Whether zstd and xz blocks keep a window over the blocks before them (see
     * {@link Builder#history(boolean)}); false by default.
     */
    public boolean history() {
        return history;
    }

    /**
     * The largest window a history may keep, a power of two (see {@link Builder#historyWindow(int)});
     * 8 MiB by default.
     */
    public int historyWindow() {
        return historyWindow;
    }

    /**
     * The window a stream written with these options declares in its header, and the most a
     * reader holds for each of its histories: the largest window its zstd and xz rungs keep
     * (only the pinned rung's, for a controller named {@code fixed:N}), each its level's native
     * window up to {@link #historyWindow()}, and at least 1 MiB. Only used with {@link #history()}.
     */
    public int streamWindow() {
        return streamWindow(ladder, namedFixedRung, historyWindow);
    }

    /**
     * Content bytes between reset points, 0 for none (see {@link Builder#resetInterval(long)});
     * none by default.
     */
    public long resetInterval() {
        return resetInterval;
    }

    /** The group every stream made with these options counts in while open (see {@link Builder#statisticsGroup}); null for none. */
    public StatisticsGroup statisticsGroup() {
        return statisticsGroup;
    }

    /** What the controller optimises (see {@link Builder#objective(Objective)}); time by default. */
    public Objective objective() {
        return objective;
    }

    /** Builds {@link AdaptiveCompressionOptions}; every setter checks its argument at once. */
    public static final class Builder {
        private Ladder ladder = Ladder.defaultLadder();
        private Supplier<? extends LevelController> controllerFactory = LevelControllers.defaultController();
        private int blockSize = DEFAULT_BLOCK_SIZE;
        /** 0 until set: then {@link #DEFAULT_MAX_BLOCK_SIZE}, or the block size if that is larger. */
        private int maxBlockSize;
        private DecisionListener listener = DecisionListener.NONE;
        private boolean history;
        private int historyWindow = 1 << FrameFormat.DEFAULT_MAX_WINDOW_LOG;
        private long resetInterval;
        private StatisticsGroup statisticsGroup;
        private Objective objective = Objective.time();
        private int namedFixedRung = -1;

        private Builder() {}

        /** The ladder to climb. */
        public Builder ladder(Ladder ladder) {
            this.ladder = Objects.requireNonNull(ladder, "ladder is null");
            return this;
        }

        /** The ladder, as a spec string such as {@code raw,lz4,zstd:3,xz:6}. */
        public Builder ladder(String spec) {
            return ladder(Ladder.parse(spec));
        }

        /** Makes the controller of each stream (controllers are stateful: one per stream). */
        public Builder controller(Supplier<? extends LevelController> factory) {
            this.controllerFactory = Objects.requireNonNull(factory, "controller factory is null");
            this.namedFixedRung = -1;
            return this;
        }

        /**
         * The controller by name: {@code model} (the default), {@code adoc} or {@code fixed:N},
         * where N must be a rung of the ladder ({@link #build} checks, whichever is set first).
         */
        public Builder controller(String name) {
            controller(LevelControllers.byName(name));
            namedFixedRung = LevelControllers.fixedRung(name);
            return this;
        }

        /** Bytes of input per block, from {@value #MIN_BLOCK_SIZE} to 64 MiB. */
        public Builder blockSize(int blockSize) {
            this.blockSize = checkBlockLength("blockSize", blockSize);
            return this;
        }

        /**
         * The longest block, from the block size to 64 MiB; by default
         * {@value #DEFAULT_MAX_BLOCK_SIZE} bytes, or the block size if that is larger. While the
         * link, not the writer, bounds the stream, the default controller doubles the blocks up
         * to it: a longer block finds matches further back and costs fewer headers, which is
         * time where the link is slower than the codec, and on such a link a block's own latency
         * is small beside its time on the wire. Where the writer bounds the stream, or the link
         * changes, blocks are {@link #blockSize(int)} long, so decisions come often. Fixed
         * rungs and AdOC's rule keep the block size. Set it to the block size to keep every
         * block at that size; a reader must accept blocks of this length
         * ({@code AdaptiveInputStream.Builder.maxBlockLength}, 4 MiB by default).
         */
        public Builder maxBlockSize(int maxBlockSize) {
            this.maxBlockSize = checkBlockLength("maxBlockSize", maxBlockSize);
            return this;
        }

        /** {@code bytes}, if a block may be that long: {@value #MIN_BLOCK_SIZE} bytes to 64 MiB. */
        private static int checkBlockLength(String name, int bytes) {
            if (bytes < MIN_BLOCK_SIZE || bytes > FrameFormat.MAX_BLOCK_LENGTH_LIMIT) {
                throw new IllegalArgumentException(name + " must be in [" + MIN_BLOCK_SIZE + ", "
                        + FrameFormat.MAX_BLOCK_LENGTH_LIMIT + "], was " + bytes);
            }
            return bytes;
        }

        /** Told every decision of the controller, with what it saw (see {@link DecisionListener}); default none. */
        public Builder listener(DecisionListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener is null");
            return this;
        }

        /**
         * Whether each zstd and xz rung keeps one stream open across the blocks it compresses,
         * so a block matches as far back in that rung's blocks as zstd's and xz's own streaming
         * modes do at its level ({@link #historyWindow(int)}), including across blocks that do
         * not shrink; a history that starts, or has missed over 1 MiB of the stream, begins
         * primed with the stream's last 2 MiB (512 KiB for the rungs slow to load it). At a
         * fixed rung it brings the stream within 1 % of native {@code zstd}'s size on data that
         * changes kind, where blocks alone are 4-7 % larger, and within 3 % on a tar of
         * documentation, where they are 12-19 % larger (docs/PERFORMANCE.md, "Wire bytes against
         * the native tools"). Off by default all the
         * same: the default controller lends and primes histories only while the writer has time
         * to spare, and on links shaped by the kernel a stream with them took 0.98-1.09x its time
         * without, which does not repay a reader's memory for them (docs/PERFORMANCE.md,
         * "Histories in streams").
         * Blocks then decode only in stream order,
         * from the stream's start or a reset point ({@link #resetInterval(long)}); a writer holds
         * each zstd rung's window and match tables in native memory (about 12 MiB at zstd:9 and
         * zstd:15) and each xz rung's dictionary and match finder on the heap (about 93 MiB at
         * xz:6), for each rung and worker when compressing in parallel; a reader up to a window,
         * a 2 MiB prime and decoder state per history and 4 MiB per stream (docs/PERFORMANCE.md,
         * "Reader memory").
         */
        public Builder history(boolean history) {
            this.history = history;
            return this;
        }

        /**
         * The largest window a history may keep, in bytes: a power of two from 1 MiB to 64 MiB,
         * 8 MiB by default, what readers accept by default. Each rung's history keeps the window
         * its level has in the native tools, up to this: 512 KiB at zstd:1, 2 MiB at zstd:3,
         * 4 MiB at zstd:9 and zstd:15, 8 MiB at zstd:19 and xz:6. The stream declares the
         * largest of its rungs' ({@link AdaptiveCompressionOptions#streamWindow()}); a reader
         * needs up to that much memory for each history it decodes and refuses a stream that
         * declares more than its limit. The writer's contexts grow with the window too (xz:6
         * takes about 93 MiB of heap at 8 MiB). Only used with {@link #history(boolean)}.
         */
        public Builder historyWindow(int bytes) {
            FrameFormat.checkWindowSize(bytes);
            this.historyWindow = bytes;
            return this;
        }

        /**
         * Makes the first block after every {@code bytes} of content a <em>reset point</em>: no
         * block from it on depends on the blocks before it, so a reader can start decoding there
         * (a Hadoop split, a reader that seeks). Every history then starts afresh, so a reset
         * point costs about what the blocks compressed in the next window lose by not matching
         * back across it. 0, the default, for none; otherwise at least a block. Only used with
         * {@link #history(boolean)}: without histories every block decodes alone.
         */
        public Builder resetInterval(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("resetInterval must be 0 (none) or positive, was " + bytes);
            }
            this.resetInterval = bytes;
            return this;
        }

        /**
         * A group whose statistics sum every stream made with these options, from its start to
         * its close and after: the way to watch many streams as one, such as every channel of a
         * Netty server or every file a Hadoop job writes (see {@link StatisticsGroup}). Null, the
         * default, for none.
         */
        public Builder statisticsGroup(StatisticsGroup group) {
            this.statisticsGroup = group;
            return this;
        }

        /**
         * What the controller optimises: {@link Objective#time()} (the default), a CPU budget
         * for compression, or cost. Only the {@code model} controller takes another than time.
         */
        public Builder objective(Objective objective) {
            this.objective = Objects.requireNonNull(objective, "objective is null");
            return this;
        }

        /** The objective as a spec string: {@code time}, {@code cpu-budget:0.3}, {@code cost:egress=0.05,cpu=0.00004}. */
        public Builder objective(String spec) {
            return objective(Objective.parse(spec));
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a controller named {@code fixed:N} names a rung
         *     the ladder does not have (a {@link FixedController} passed as an object clamps),
         *     the longest block set is shorter than the block size, the reset interval is
         *     shorter than a block, or the controller cannot pursue the
         *     objective
         */
        public AdaptiveCompressionOptions build() {
            if (objective.kind() != Objective.Kind.TIME) {
                controllerFactory.get().objective(objective); // a controller per stream: this one only checks
            }
            if (namedFixedRung > ladder.top()) {
                throw new IllegalArgumentException("controller 'fixed:" + namedFixedRung + "' names rung "
                        + namedFixedRung + ", but the ladder " + ladder + " has rungs 0 to " + ladder.top());
            }
            if (maxBlockSize > 0 && maxBlockSize < blockSize) {
                throw new IllegalArgumentException("maxBlockSize " + maxBlockSize + " is shorter than the block size ("
                        + blockSize + " bytes)");
            }
            if (resetInterval > 0 && resetInterval < blockSize) {
                throw new IllegalArgumentException("resetInterval " + resetInterval + " is shorter than a block ("
                        + blockSize + " bytes)");
            }
            return new AdaptiveCompressionOptions(this);
        }
    }
}
