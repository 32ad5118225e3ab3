package org.adaptivecompress.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorInputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;

/**
 * The stream formats the tool reads and writes: its own ({@code .adc}), the standard ones other
 * tools read ({@code .gz}, {@code .xz} and {@code .zst} through commons-compress, {@code .lz4}
 * through lz4-java, whose frame streams use the native codec: commons-compress's pure-Java LZ4
 * writer took 11 s for 1 MiB of mixed data here), and plain bytes.
 *
 * <p>Standard formats are written at their usual default level (gzip 6, xz 6, zstd 3, LZ4
 * frame): they exist for handing data to other tools, not for adapting to a link.
 */
enum StreamFormat {
    /** This project's frame format; reads concatenated streams as one, like {@code zstd -d}. */
    ADC("adc"),
    /** gzip (RFC 1952), concatenated members read as one. */
    GZ("gz"),
    /** xz. */
    XZ("xz"),
    /** Zstandard frames. */
    ZST("zst"),
    /** LZ4 frame format, concatenated frames read as one. */
    LZ4("lz4"),
    /** Uncompressed bytes. */
    PLAIN("");

    private final String extension;

    StreamFormat(String extension) {
        this.extension = extension;
    }

    /** The file-name extension without the dot; empty for {@link #PLAIN}. */
    String extension() {
        return extension;
    }

    /** The format a file name's extension names, {@link #PLAIN} if none of them. */
    static StreamFormat ofFileName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (StreamFormat f : values()) {
            if (f != PLAIN && lower.endsWith("." + f.extension)) {
                return f;
            }
        }
        return PLAIN;
    }

    /** Reads {@code in} as this format; the result closes {@code in}. */
    InputStream decoding(InputStream in) throws IOException {
        return decoding(in, null);
    }

    /**
     * Reads {@code in} as this format, refusing {@link #ADC} blocks outside {@code budget} (null
     * for none); the result closes {@code in}.
     */
    InputStream decoding(InputStream in, ReceiverBudget budget) throws IOException {
        switch (this) {
            case ADC:
                // The tool reads what it may have written: any block size the format allows.
                AdaptiveInputStream.Builder adc = AdaptiveInputStream.builder().concatenated(true)
                        .maxBlockLength(FrameFormat.MAX_BLOCK_LENGTH_LIMIT);
                return (budget == null ? adc : adc.accept(budget)).build(in);
            case GZ:
                return GzipCompressorInputStream.builder().setInputStream(in).setDecompressConcatenated(true).get();
            case XZ:
                return XZCompressorInputStream.builder().setInputStream(in).setDecompressConcatenated(true).get();
            case ZST:
                return new ZstdCompressorInputStream(in);
            case LZ4:
                return new LZ4FrameInputStream(in);
            case PLAIN:
                return in;
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Writes this format into {@code out}, taking {@link #ADC}'s settings from {@code adc}, for an
     * input of {@code inputLength} bytes (-1 if unknown; an objective's deadline needs it); the
     * result closes {@code out}.
     */
    OutputStream encoding(OutputStream out, CompressionMixin adc, String defaultController, long inputLength)
            throws IOException {
        switch (this) {
            case ADC:
                return adc.builder(defaultController, inputLength).build(out);
            case GZ:
                return new GzipCompressorOutputStream(out);
            case XZ:
                return new XZCompressorOutputStream(out);
            case ZST:
                return new ZstdCompressorOutputStream(out);
            case LZ4:
                return new LZ4FrameOutputStream(out);
            case PLAIN:
                return out;
            default:
                throw new AssertionError(this);
        }
    }

    /** The name users type: {@code adc}, {@code gz}, ..., {@code plain}. */
    @Override
    public String toString() {
        return this == PLAIN ? "plain" : extension;
    }
}
