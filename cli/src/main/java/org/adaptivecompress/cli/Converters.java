package org.adaptivecompress.cli;

import java.util.Locale;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Option values checked while the command line is parsed, so a bad one is a usage error
 * (exit 2) that names the option, before any file is touched.
 */
final class Converters {

    private Converters() {}

    /** A link rate: {@code 10mbit}, {@code 1gbit}, {@code 20MB}, {@code unlimited}; to bytes per second. */
    static final class Rate implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return RateLimitedOutputStream.parseRate(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A ladder spec such as {@code raw,lz4,zstd:3,xz:6}, validated, kept as given. */
    static final class LadderSpec implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                Ladder.parse(value);
                return value;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A receiver budget ({@code lz4,zstd:9,window=2m}), parsed. */
    static final class Budget implements ITypeConverter<ReceiverBudget> {
        @Override
        public ReceiverBudget convert(String value) {
            try {
                return ReceiverBudget.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A controller name ({@code model}, {@code adoc} or {@code fixed:N}), validated, kept as given. */
    static final class ControllerName implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                LevelControllers.byName(value);
                return value;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** An objective spec: {@code time}, {@code cpu-budget:0.3}, {@code cost:egress=0.05,cpu=0.00001}. */
    static final class ObjectiveSpec implements ITypeConverter<Objective> {
        @Override
        public Objective convert(String value) {
            try {
                return Objective.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A byte count with an optional binary suffix: {@code 131072}, {@code 128k}, {@code 1m}. */
    static final class Size implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            int shift = 0;
            if (v.endsWith("k") || v.endsWith("kib")) {
                shift = 10;
            } else if (v.endsWith("m") || v.endsWith("mib")) {
                shift = 20;
            }
            String digits = v.replaceAll("(k|m)(ib)?$", "");
            try {
                long n = Long.parseLong(digits);
                if (n < 1 || n > Integer.MAX_VALUE >> shift) {
                    throw new TypeConversionException("'" + value + "' is not a size between 1 byte and 2 GiB");
                }
                return (int) (n << shift);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a size; try 131072, 128k or 1m");
            }
        }
    }

    /** A {@link Size}, or {@code 0} for none. */
    static final class SizeOrZero implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return value.trim().equals("0") ? 0 : new Size().convert(value);
        }
    }

    /** A {@link Size} within the block sizes the frame format allows. */
    static final class BlockSize implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = new Size().convert(value);
            if (n < AdaptiveCompressionOptions.MIN_BLOCK_SIZE || n > FrameFormat.MAX_BLOCK_LENGTH_LIMIT) {
                throw new TypeConversionException("block size must be between " + AdaptiveCompressionOptions.MIN_BLOCK_SIZE
                        + " bytes and 64m, was " + value);
            }
            return n;
        }
    }

    /** {@code -T N}: 0 (one thread per core) to 256 compressing threads. */
    static final class Threads implements ITypeConverter<Integer> {
        /** More threads than this is a typo, not a machine. */
        static final int MAX = 256;

        @Override
        public Integer convert(String value) {
            int n;
            try {
                n = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("threads must be a number from 0 (one per core) to " + MAX
                        + ", was '" + value + "'");
            }
            if (n < 0 || n > MAX) {
                throw new TypeConversionException("threads must be from 0 (one per core) to " + MAX + ", was " + n);
            }
            return n;
        }
    }
}
