package org.adaptivecompress.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * Moves one stream from one {@link StreamFormat} to another, with a progress bar: the one loop
 * behind {@code compress}, {@code decompress}, {@code convert} and {@code receive}.
 */
final class Transcoder {

    private static final int BUFFER = 1 << 16;

    /** The input: its name for messages, its bytes, and its size if known (-1 if not). */
    record Source(String name, InputStream in, long size) {}

    /** The output: its name for messages, and whether closing the job closes it (not for stdout). */
    record Sink(String name, OutputStream out, boolean close) {}

    /**
     * What was moved: bytes read, bytes between decoder and encoder, bytes written, and the
     * blocks per rung if the output is adaptive ({@code null} if not).
     */
    record Result(long bytesIn, long plainBytes, long bytesOut, CompressionStatistics statistics) {

        /** Uncompressed size over compressed size, whichever side is compressed. */
        double ratio(boolean outputCompressed) {
            long packed = outputCompressed ? bytesOut : bytesIn;
            return packed == 0 ? 0 : plainBytes / (double) packed;
        }
    }

    private final PrintWriter err;
    private final boolean progress;
    private final CompressionMixin adc;
    private final String defaultController;
    /** What an {@code .adc} input must stay inside; null for anything this tool reads. */
    private ReceiverBudget accepted;

    /** A transcoder for jobs that write no {@code .adc}: the library's default settings if they do. */
    Transcoder(PrintWriter err, boolean progress) {
        this(err, progress, new CompressionMixin(), LevelControllers.DEFAULT_NAME);
    }

    /**
     * @param adc the settings for {@link StreamFormat#ADC} output, with {@code defaultController}
     *     when no {@code --controller} was given
     */
    Transcoder(PrintWriter err, boolean progress, CompressionMixin adc, String defaultController) {
        this.err = err;
        this.progress = progress;
        this.adc = adc;
        this.defaultController = defaultController;
    }

    /** Refuses {@code .adc} input outside {@code budget}: what {@code receive} advertised. */
    Transcoder accepting(ReceiverBudget budget) {
        this.accepted = budget;
        return this;
    }

    /** Reads all of {@code source} as {@code from}, writes it to {@code sink} as {@code to}, closes both. */
    Result run(String label, Source source, StreamFormat from, Sink sink, StreamFormat to) throws IOException {
        CountingInputStream rawIn = new CountingInputStream(source.in());
        CountingOutputStream rawOut = new CountingOutputStream(sink.out(), sink.close());
        OutputStream encoder = null;
        CountingInputStream decoded = null;
        try (InputStream decoder = decode(rawIn, from, source.name(), accepted)) {
            decoded = new CountingInputStream(decoder);
            encoder = to.encoding(rawOut, adc, defaultController, from == StreamFormat.PLAIN ? source.size() : -1);
            OutputStream enc = encoder;
            Progress.Line line = new Progress.Line(label, source.size(), rawIn::count, decoded::count,
                    to == StreamFormat.PLAIN ? rawIn::count : rawOut::count, () -> rungOf(enc, from, to));
            Progress bar = Progress.start(err, progress, line);
            try {
                byte[] buffer = new byte[BUFFER];
                int n;
                while ((n = read(decoded, buffer, source.name(), from)) > 0) {
                    write(enc, buffer, n, sink.name());
                }
            } finally {
                bar.close();
            }
            closeOutput(encoder, sink.name());
        } catch (IOException | RuntimeException e) {
            closeQuietly(encoder == null ? rawOut : encoder, e);
            throw e;
        }
        CompressionStatistics statistics = encoder instanceof AdaptiveOutputStream
                ? ((AdaptiveOutputStream) encoder).statistics() : null;
        return new Result(rawIn.count(), decoded.count(), rawOut.count(), statistics);
    }

    private static InputStream decode(InputStream in, StreamFormat from, String name, ReceiverBudget budget)
            throws IOException {
        try {
            return from.decoding(in, budget);
        } catch (IOException e) {
            throw CliException.about(name + " (" + from + ")", e);
        }
    }

    private static int read(InputStream in, byte[] buffer, String name, StreamFormat from) throws IOException {
        try {
            return in.read(buffer);
        } catch (IOException e) {
            throw CliException.about(from == StreamFormat.PLAIN ? name : name + " (" + from + ")", e);
        }
    }

    private static void write(OutputStream out, byte[] buffer, int n, String name) throws IOException {
        try {
            out.write(buffer, 0, n);
        } catch (IOException e) {
            throw CliException.about(name, e);
        }
    }

    private static void closeOutput(OutputStream out, String name) throws IOException {
        try {
            out.close();
        } catch (IOException e) {
            throw CliException.about(name, e);
        }
    }

    private static void closeQuietly(OutputStream out, Exception primary) {
        if (out == null) {
            return;
        }
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            primary.addSuppressed(e);
        }
    }

    /** The rung the adaptive encoder is on, else the format being written or read. */
    private static String rungOf(OutputStream encoder, StreamFormat from, StreamFormat to) {
        if (encoder instanceof AdaptiveOutputStream) {
            CompressionStatistics s = ((AdaptiveOutputStream) encoder).statistics();
            return s.ladder().rung(s.currentRung()).toString();
        }
        return (to == StreamFormat.PLAIN ? from : to).toString();
    }
}
