package org.adaptivecompress.engine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.ReaderMemory;

/**
 * What a reader accepts to decode: which codecs, up to which level each, how large a history
 * window and how long a block. A reader advertises it where the transport lets it speak back
 * (a Netty channel's handshake, the CLI's {@code receive}, a setting Kafka producers and
 * consumers share); the writer then chooses only rungs, windows and blocks inside it
 * ({@link AdaptiveCompressionOptions#within}), and the reader still refuses anything outside it.
 *
 * <p>Written as one spec string of comma-separated items:
 * <ul>
 *   <li>{@code codec} or {@code codec:MAX}: a codec the reader decodes, up to level MAX
 *       ({@code raw}, {@code lz4}, {@code zstd}, {@code xz}, {@code deflate}; LZ4 HC levels count
 *       as {@code lz4} levels). Raw is always accepted. Without any codec item, every codec is
 *       accepted at every level; {@code any} says so explicitly.</li>
 *   <li>{@code window=SIZE}: the largest history window, a power of two from 1 MiB to 64 MiB,
 *       or 0 for no histories at all (8 MiB by default, a reader's default limit).</li>
 *   <li>{@code block=SIZE}: the longest block, from {@value AdaptiveCompressionOptions#MIN_BLOCK_SIZE}
 *       bytes to 64 MiB (4 MiB by default, a reader's default limit).</li>
 *   <li>{@code memory=SIZE}: the most the reader holds for the stream, at least 64 KiB (no
 *       limit beyond the others by default): twice the block limit, and with histories 4 MiB
 *       plus, for each history the stream opens, its window and 2.5 MiB (docs/PERFORMANCE.md,
 *       "Reader memory"). A writer picks a window and a number of histories that fit, or none;
 *       the block limit shrinks to half of it if larger.</li>
 * </ul>
 * Sizes take a {@code k}, {@code m} or {@code g} suffix (binary, optionally {@code KiB}...).
 * For example {@code lz4,zstd:9,window=2m} is a small receiver that does not decode xz, nor
 * zstd above level 9, and holds at most 2 MiB per history. Immutable.
 */
public final class ReceiverBudget {

    /** The window that means "no histories": every block must decode alone. */
    public static final int NO_HISTORY = 0;
    /** No memory limit beyond what the window and block limits imply. */
    public static final long UNLIMITED_MEMORY = Long.MAX_VALUE;
    /** The least memory a budget may state: a few blocks' worth. */
    private static final long MIN_MEMORY = 64 << 10;

    private static final ReceiverBudget DEFAULTS = new ReceiverBudget(allCodecs(),
            1 << FrameFormat.DEFAULT_MAX_WINDOW_LOG, FrameFormat.DEFAULT_MAX_BLOCK_LENGTH, UNLIMITED_MEMORY);

    /** Each accepted codec's top level; absent codecs are refused. */
    private final Map<CodecType, Integer> maxLevels;
    private final int maxWindow;
    private final int maxBlockLength;
    private final long maxMemory;

    private ReceiverBudget(Map<CodecType, Integer> maxLevels, int maxWindow, int maxBlockLength, long maxMemory) {
        this.maxLevels = maxLevels;
        this.maxWindow = maxWindow;
        this.maxBlockLength = (int) Math.min(maxBlockLength, maxMemory / 2);
        this.maxMemory = maxMemory;
    }

    /** What a reader with default limits accepts: every codec and level, 8 MiB windows, 4 MiB blocks. */
    public static ReceiverBudget defaults() {
        return DEFAULTS;
    }

    /**
     * Parses a budget spec (see the class comment).
     *
     * @throws IllegalArgumentException naming the item that is wrong
     */
    public static ReceiverBudget parse(String spec) {
        Objects.requireNonNull(spec, "spec is null");
        Map<CodecType, Integer> levels = new EnumMap<>(CodecType.class);
        boolean anyCodec = false;
        int window = DEFAULTS.maxWindow;
        int block = DEFAULTS.maxBlockLength;
        long memory = UNLIMITED_MEMORY;
        for (String raw : spec.split(",", -1)) {
            String item = raw.trim().toLowerCase(Locale.ROOT);
            int eq = item.indexOf('=');
            if (item.isEmpty()) {
                throw new IllegalArgumentException("receiver budget '" + spec + "' has an empty item");
            } else if (eq >= 0) {
                String key = item.substring(0, eq).trim();
                long size = parseSize(spec, item.substring(eq + 1).trim());
                if ("window".equals(key)) {
                    window = checkWindow(size);
                } else if ("block".equals(key)) {
                    block = checkBlock(size);
                } else if ("memory".equals(key)) {
                    memory = checkMemory(size);
                } else {
                    throw new IllegalArgumentException("unknown item '" + key + "' in receiver budget '" + spec
                            + "'; expected window=, block= or memory=");
                }
            } else if ("any".equals(item)) {
                anyCodec = true;
            } else {
                addCodec(spec, item, levels);
            }
        }
        if (anyCodec || levels.isEmpty()) {
            levels = allCodecs();
        }
        levels.putIfAbsent(CodecType.RAW, Integer.MAX_VALUE);
        return new ReceiverBudget(levels, window, block, memory);
    }

    /** This budget with another longest block (no more than half the memory limit). */
    public ReceiverBudget withMaxBlockLength(int bytes) {
        return new ReceiverBudget(maxLevels, maxWindow, checkBlock(bytes), maxMemory);
    }

    /** The most the reader holds for a stream, or {@link #UNLIMITED_MEMORY}. */
    public long maxMemory() {
        return maxMemory;
    }

    /**
     * How many histories of {@code window} bytes a stream may open inside this budget: up to
     * {@link FrameFormat#MAX_HISTORIES} without a memory limit, 0 where not one fits or the
     * budget takes no histories.
     */
    public int historiesWithin(int window) {
        if (maxWindow == NO_HISTORY || window > maxWindow) {
            return 0;
        }
        return maxMemory == UNLIMITED_MEMORY ? FrameFormat.MAX_HISTORIES
                : ReaderMemory.historiesWithin(maxMemory, maxBlockLength, window);
    }

    /** Whether blocks of this codec are accepted at some level. */
    public boolean accepts(CodecType codec) {
        return maxLevels.containsKey(codec);
    }

    /** Whether a block of this codec at this level is accepted. */
    public boolean accepts(CodecType codec, int level) {
        Integer max = maxLevels.get(codec);
        return max != null && level <= max;
    }

    /** Whether a writer may use this rung. Raw always is. */
    public boolean admits(Rung rung) {
        return accepts(rung.codec(), rung.level());
    }

    /** The rungs of {@code ladder} this budget admits, in order; raw stays rung 0. */
    public Ladder admitted(Ladder ladder) {
        List<Rung> kept = new ArrayList<>();
        for (Rung rung : ladder.rungs()) {
            if (admits(rung)) {
                kept.add(rung);
            }
        }
        return Ladder.of(kept);
    }

    /**
     * Where rung {@code rung} of {@code ladder} lands in {@link #admitted admitted(ladder)}: the
     * highest admitted rung at or below it, so a pinned rung the reader refuses moves down to
     * the nearest it accepts. {@code rung} is clamped to the ladder's top first.
     */
    public int admittedRung(Ladder ladder, int rung) {
        int kept = -1;
        for (int i = 0; i <= Math.min(rung, ladder.top()); i++) {
            if (admits(ladder.rung(i))) {
                kept++;
            }
        }
        return kept;
    }

    /** The largest history window in bytes, or {@link #NO_HISTORY}. */
    public int maxWindow() {
        return maxWindow;
    }

    /** The longest block, compressed or not, in bytes. */
    public int maxBlockLength() {
        return maxBlockLength;
    }

    /** The spec string that {@link #parse} reads back into an equal budget. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (maxLevels.equals(allCodecs())) {
            sb.append("any");
        } else {
            for (Map.Entry<CodecType, Integer> e : maxLevels.entrySet()) {
                sb.append(sb.length() > 0 ? "," : "").append(e.getKey().specName());
                if (e.getValue() != Integer.MAX_VALUE && e.getKey() != CodecType.RAW) {
                    sb.append(':').append(e.getValue());
                }
            }
        }
        sb.append(",window=").append(formatSize(maxWindow)).append(",block=").append(formatSize(maxBlockLength));
        return maxMemory == UNLIMITED_MEMORY ? sb.toString() : sb.append(",memory=").append(formatSize(maxMemory)).toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ReceiverBudget)) {
            return false;
        }
        ReceiverBudget b = (ReceiverBudget) o;
        return b.maxLevels.equals(maxLevels) && b.maxWindow == maxWindow && b.maxBlockLength == maxBlockLength
                && b.maxMemory == maxMemory;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxLevels, maxWindow, maxBlockLength, maxMemory);
    }

    private static Map<CodecType, Integer> allCodecs() {
        Map<CodecType, Integer> levels = new EnumMap<>(CodecType.class);
        for (CodecType codec : CodecType.values()) {
            levels.put(codec, Integer.MAX_VALUE);
        }
        return levels;
    }

    private static void addCodec(String spec, String item, Map<CodecType, Integer> levels) {
        int colon = item.indexOf(':');
        String name = colon < 0 ? item : item.substring(0, colon).trim();
        CodecType codec = null;
        for (CodecType c : CodecType.values()) {
            if (c.specName().equals(name)) {
                codec = c;
            }
        }
        if (codec == null) {
            throw new IllegalArgumentException("unknown codec '" + name + "' in receiver budget '" + spec
                    + "'; expected raw, lz4, zstd, xz, deflate or any");
        }
        int max = Integer.MAX_VALUE;
        if (colon >= 0) {
            if (codec == CodecType.RAW) {
                throw new IllegalArgumentException("raw takes no level in receiver budget '" + spec + "'");
            }
            try {
                max = Integer.parseInt(item.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("level in '" + item + "' of receiver budget '" + spec
                        + "' is not an integer", e);
            }
        }
        if (levels.put(codec, max) != null) {
            throw new IllegalArgumentException(name + " appears twice in receiver budget '" + spec + "'");
        }
    }

    private static int checkWindow(long bytes) {
        if (bytes == NO_HISTORY) {
            return NO_HISTORY;
        }
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a receiver's window must be 0 or 1 MiB to 64 MiB, was " + bytes);
        }
        try {
            FrameFormat.checkWindowSize((int) bytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a receiver's window must be 0 or a power of two from 1 MiB to 64 MiB,"
                    + " was " + bytes, e);
        }
        return (int) bytes;
    }

    private static int checkBlock(long bytes) {
        if (bytes < AdaptiveCompressionOptions.MIN_BLOCK_SIZE || bytes > FrameFormat.MAX_BLOCK_LENGTH_LIMIT) {
            throw new IllegalArgumentException("a receiver's block limit must be in [" + AdaptiveCompressionOptions.MIN_BLOCK_SIZE
                    + ", " + FrameFormat.MAX_BLOCK_LENGTH_LIMIT + "] bytes, was " + bytes);
        }
        return (int) bytes;
    }

    private static long checkMemory(long bytes) {
        if (bytes < MIN_MEMORY) {
            throw new IllegalArgumentException("a receiver's memory limit must be at least " + MIN_MEMORY + " bytes, was "
                    + bytes);
        }
        return bytes;
    }

    private static long parseSize(String spec, String text) {
        String t = text.endsWith("ib") ? text.substring(0, text.length() - 2) : text.endsWith("b") ? text.substring(0,
                text.length() - 1) : text;
        int shift = 0;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'k':
                    shift = 10;
                    break;
                case 'm':
                    shift = 20;
                    break;
                case 'g':
                    shift = 30;
                    break;
                default:
                    break;
            }
        }
        String digits = shift == 0 ? t : t.substring(0, t.length() - 1);
        try {
            long value = Long.parseLong(digits.trim());
            if (value < 0 || value > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException("out of range");
            }
            return value << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size '" + text + "' in receiver budget '" + spec
                    + "' is not a number of bytes (such as 4194304, 4m or 4MiB)", e);
        }
    }

    private static String formatSize(long bytes) {
        if (bytes != 0 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + "m";
        }
        return bytes != 0 && bytes % 1024 == 0 ? (bytes >> 10) + "k" : Long.toString(bytes);
    }
}
