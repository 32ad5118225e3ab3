package org.adaptivecompress.cli;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.internal.format.FrameParser;
import org.adaptivecompress.internal.format.PayloadBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code inspect FILE}: lists the blocks of an {@code .adc} stream (offset, rung, sizes,
 * ratio) and sums them up per rung, reading only the headers and skipping the payloads unless
 * {@code --verify} asks to decode them and check their checksums too; {@code --json} prints the
 * same as one JSON document for scripts.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "List the blocks of an .adc stream and sum them up per codec.")
final class InspectCommand implements Callable<Integer> {

    @ParentCommand
    AdaptiveCompressCli cli;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The stream to inspect, or '-' for stdin.")
    String file;

    @Option(names = "--verify", description = "Also decode every block and check its CRC32C.")
    boolean verify;

    @Option(names = {"-s", "--summary"}, description = "Print only the per-codec summary, not every block.")
    boolean summaryOnly;

    @Option(names = "--json", description = "Print one JSON document: the streams and their blocks, and the summary.")
    boolean json;

    /** Rungs in codec-id order, then by level: raw, lz4, lz4hc, zstd ..., as a ladder climbs. */
    private record RungKey(CodecType codec, int level) {
        private static final Comparator<RungKey> ORDER =
                Comparator.comparingInt((RungKey k) -> k.codec.id()).thenComparingInt(RungKey::level);

        /** The name a ladder spec uses for this rung. */
        String label() {
            switch (codec) {
                case RAW:
                    return "raw";
                case LZ4:
                    return level == 0 ? "lz4" : "lz4hc:" + level;
                default:
                    return codec.specName() + ":" + level;
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        Transcoder.Source source = Endpoints.input(file, cli.stdin());
        PrintWriter out = spec.commandLine().getOut();
        Map<RungKey, InspectReport.Totals> totals = new TreeMap<>(RungKey.ORDER);
        CountingInputStream counted = new CountingInputStream(source.in());
        Progress.Line line = new Progress.Line("inspect " + source.name(), source.size(), counted::count,
                () -> 0, () -> 0, () -> verify ? "verifying" : "reading headers");
        int streams;
        // Block lines scroll on the same terminal: a bar only when they are not printed.
        Progress bar = Progress.start(spec.commandLine().getErr(), cli.progress() && summaryOnly, line);
        InspectReport report = json ? new InspectReport.Json(out, summaryOnly) : new InspectReport.Text(out, summaryOnly);
        try (InputStream in = new BufferedInputStream(counted, 1 << 16); BlockDecoder decoder = new BlockDecoder()) {
            streams = new Reader(in, report, decoder, totals).readAll();
        } catch (IOException e) {
            out.flush();
            throw CliException.about(source.name(), e);
        } finally {
            bar.close();
        }
        Map<String, InspectReport.Totals> byLabel = new LinkedHashMap<>();
        totals.forEach((k, t) -> byLabel.put(k.label(), t));
        report.summary(streams, verify, byLabel);
        out.flush();
        return 0;
    }

    /** Walks the streams in one input, printing each block's line and adding it up. */
    private final class Reader {
        private final InputStream in;
        private final InspectReport report;
        private final BlockDecoder decoder;
        private final FrameParser parser;
        private final Map<RungKey, InspectReport.Totals> totals;
        private BlockHeader header;
        private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
        private byte[] payload = new byte[0];
        private byte[] decoded = new byte[0];
        private long offset;

        Reader(InputStream in, InspectReport report, BlockDecoder decoder, Map<RungKey, InspectReport.Totals> totals) {
            this.in = in;
            this.report = report;
            this.decoder = decoder;
            // No ceilings below the format's: inspect reports on whatever a writer may produce.
            this.parser = new FrameParser(decoder, FrameFormat.MAX_BLOCK_LENGTH_LIMIT)
                    .maxWindowLog(FrameFormat.MAX_WINDOW_LOG);
            this.totals = totals;
        }

        /** Reads every stream to its end marker; returns how many there were. */
        int readAll() throws IOException {
            int streams = 0;
            while (readFully(headerBytes, FrameFormat.STREAM_HEADER_LENGTH, "stream header", true)) {
                parser.streamHeader(headerBytes, 0);
                streams++;
                report.streamStarted(streams, offset - FrameFormat.STREAM_HEADER_LENGTH);
                readBlocks();
                report.streamEnded();
            }
            if (streams == 0) {
                throw new TruncatedStreamException("input is empty: no stream header");
            }
            return streams;
        }

        private void readBlocks() throws IOException {
            for (long index = 0; ; index++) {
                long position = offset;
                readFully(headerBytes, parser.blockHeaderLength(), "block header", false);
                // From the headers alone: a frame lost, repeated or moved shows without --verify.
                header = parser.blockHeader(headerBytes, 0, position);
                if (header.isEndOfStream()) {
                    return;
                }
                RungKey key = new RungKey(header.codec(), header.level());
                if (verify) {
                    verifyPayload(position);
                } else {
                    skipPayload(position);
                }
                totals.computeIfAbsent(key, k -> new InspectReport.Totals())
                        .add(header.uncompressedLength(), header.storedLength());
                report.block(index, position, key.label(), header.uncompressedLength(), header.storedLength(),
                        header.isResetPoint());
            }
        }

        private void verifyPayload(long position) throws IOException {
            // Grown as the bytes arrive: a header alone cannot make inspect allocate what it declares.
            payload = PayloadBuffer.read(in, payload, header.storedLength(), offset);
            offset += header.storedLength();
            if (decoded.length < header.uncompressedLength()) {
                decoded = new byte[header.uncompressedLength()];
            }
            decoder.decode(header, payload, 0, decoded, 0, position);
        }

        private void skipPayload(long position) throws IOException {
            try {
                in.skipNBytes(header.storedLength());
                offset += header.storedLength();
            } catch (EOFException e) {
                throw new TruncatedStreamException("stream ends inside the " + header.storedLength()
                        + "-byte payload of the block at offset " + position);
            }
        }

        /**
         * Reads {@code length} bytes; false only if {@code endAllowed} and the input ends before
         * the first of them.
         */
        private boolean readFully(byte[] dst, int length, String what, boolean endAllowed) throws IOException {
            int n = in.readNBytes(dst, 0, length);
            offset += n;
            if (n == 0 && endAllowed) {
                return false;
            }
            if (n < length) {
                throw new TruncatedStreamException("stream ends at offset " + offset + " inside a " + what + " ("
                        + n + " of " + length + " bytes present)");
            }
            return true;
        }
    }
}
