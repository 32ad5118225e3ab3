package org.adaptivecompress.codec;

import java.util.Locale;
import java.util.Objects;
import org.adaptivecompress.internal.codec.Codecs;

/**
 * One step of a {@link Ladder}: a codec at a level, written in specs as {@code codec[:level]}.
 *
 * <p>Recognised specs: {@code raw}; {@code lz4} (fast); {@code lz4hc[:1..17]} (default 9);
 * {@code zstd[:level]} (any level zstd accepts, negative included; default 3);
 * {@code xz[:0..9]} (default 6); {@code deflate[:1..9]} (default 6). Immutable.
 */
public final class Rung {

    private static final int DEFAULT_LZ4HC_LEVEL = 9;
    private static final int DEFAULT_ZSTD_LEVEL = 3;
    private static final int DEFAULT_XZ_PRESET = 6;
    private static final int DEFAULT_DEFLATE_LEVEL = 6;

    /** Rung 0 of every ladder. */
    public static final Rung RAW = new Rung(CodecType.RAW, 0, "raw");

    private final CodecType codec;
    private final int level;
    private final String spec;

    private Rung(CodecType codec, int level, String spec) {
        this.codec = codec;
        this.level = level;
        this.spec = spec;
    }

    /** The LZ4 fast compressor. */
    public static Rung lz4() {
        return new Rung(CodecType.LZ4, Codecs.LZ4_FAST, "lz4");
    }

    /** LZ4 HC at {@code level} (1-17). */
    public static Rung lz4hc(int level) {
        checkRange("lz4hc", level, Codecs.minLevel(CodecType.LZ4), Codecs.maxLevel(CodecType.LZ4));
        return new Rung(CodecType.LZ4, level, "lz4hc:" + level);
    }

    /** Zstandard at {@code level}, negative levels included. */
    public static Rung zstd(int level) {
        checkRange("zstd", level, Codecs.minLevel(CodecType.ZSTD), Codecs.maxLevel(CodecType.ZSTD));
        return new Rung(CodecType.ZSTD, level, "zstd:" + level);
    }

    /** LZMA2 at xz {@code preset} (0-9). */
    public static Rung xz(int preset) {
        checkRange("xz", preset, Codecs.minLevel(CodecType.XZ), Codecs.maxLevel(CodecType.XZ));
        return new Rung(CodecType.XZ, preset, "xz:" + preset);
    }

    /** Raw deflate at {@code level} (1-9). */
    public static Rung deflate(int level) {
        checkRange("deflate", level, Codecs.minLevel(CodecType.DEFLATE), Codecs.maxLevel(CodecType.DEFLATE));
        return new Rung(CodecType.DEFLATE, level, "deflate:" + level);
    }

    /**
     * Parses one rung spec such as {@code zstd:3}.
     *
     * @throws IllegalArgumentException naming the spec and what is wrong with it
     */
    public static Rung parse(String spec) {
        Objects.requireNonNull(spec, "spec is null");
        String trimmed = spec.trim().toLowerCase(Locale.ROOT);
        int colon = trimmed.indexOf(':');
        String name = colon < 0 ? trimmed : trimmed.substring(0, colon);
        Integer level = colon < 0 ? null : parseLevel(spec, trimmed.substring(colon + 1));
        switch (name) {
            case "raw":
            case "none":
                requireNoLevel(spec, name, level);
                return RAW;
            case "lz4":
                requireNoLevel(spec, name, level);
                return lz4();
            case "lz4hc":
                return lz4hc(level == null ? DEFAULT_LZ4HC_LEVEL : level);
            case "zstd":
                return zstd(level == null ? DEFAULT_ZSTD_LEVEL : level);
            case "xz":
            case "lzma2":
                return xz(level == null ? DEFAULT_XZ_PRESET : level);
            case "deflate":
                return deflate(level == null ? DEFAULT_DEFLATE_LEVEL : level);
            default:
                throw new IllegalArgumentException("unknown codec '" + name + "' in rung spec '" + spec
                        + "'; expected one of raw, lz4, lz4hc, zstd, xz, deflate");
        }
    }

    /** The codec that stores this rung's blocks. */
    public CodecType codec() {
        return codec;
    }

    /** The codec level: 0 for raw and fast LZ4, the HC level, zstd level, xz preset or deflate level. */
    public int level() {
        return level;
    }

    /** The canonical spec, e.g. {@code zstd:3}; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return spec;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rung && ((Rung) o).spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    private static Integer parseLevel(String spec, String text) {
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("level '" + text + "' in rung spec '" + spec + "' is not an integer", e);
        }
    }

    private static void requireNoLevel(String spec, String name, Integer level) {
        if (level != null) {
            throw new IllegalArgumentException("rung spec '" + spec + "': " + name + " takes no level"
                    + ("lz4".equals(name) ? " (use lz4hc:N for LZ4 HC)" : ""));
        }
    }

    private static void checkRange(String codec, int level, int min, int max) {
        if (level < min || level > max) {
            throw new IllegalArgumentException(
                    codec + " level " + level + " is out of range [" + min + ", " + max + "]");
        }
    }
}
