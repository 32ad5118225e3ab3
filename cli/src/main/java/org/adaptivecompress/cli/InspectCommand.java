package org.adaptivecompress.cli;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.Locale;
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
 * {@code --verify} asks to decode them and check their checksums too.
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

    /** Blocks, uncompressed and stored bytes of one rung. */
    private static final class Totals {
        long blocks;
        long in;
        long stored;
    }

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
        Map<RungKey, Totals> totals = new TreeMap<>(RungKey.ORDER);
        CountingInputStream counted = new CountingInputStream(source.in());
        Progress.Line line = new Progress.Line("inspect " + source.name(), source.size(), counted::count,
                () -> 0, () -> 0, () -> verify ? "verifying" : "reading headers");
        int streams;
        // Block lines scroll on the same terminal: a bar only when they are not printed.
        Progress bar = Progress.start(spec.commandLine().getErr(), cli.progress() && summaryOnly, line);
        try (InputStream in = new BufferedInputStream(counted, 1 << 16); BlockDecoder decoder = new BlockDecoder()) {
            streams = new Reader(in, out, decoder, totals).readAll();
        } catch (IOException e) {
            out.flush();
            throw CliException.about(source.name(), e);
        } finally {
            bar.close();
        }
        printSummary(out, streams, totals);
        return 0;
    }

    private void printSummary(PrintWriter out, int streams, Map<RungKey, Totals> totals) {
        Totals all = new Totals();
        out.printf(Locale.ROOT, "summary: %d stream%s%s%n", streams, streams == 1 ? "" : "s",
                verify ? ", every block verified" : "");
        out.printf(Locale.ROOT, "  %-12s %10s %16s %16s %9s%n", "rung", "blocks", "in", "stored", "ratio");
        for (Map.Entry<RungKey, Totals> e : totals.entrySet()) {
            Totals t = e.getValue();
            printTotals(out, e.getKey().label(), t);
            all.blocks += t.blocks;
            all.in += t.in;
            all.stored += t.stored;
        }
        printTotals(out, "total", all);
        out.flush();
    }

    private static void printTotals(PrintWriter out, String label, Totals t) {
        out.printf(Locale.ROOT, "  %-12s %,10d %,16d %,16d %8.2fx%n", label, t.blocks, t.in, t.stored,
                t.stored == 0 ? 0.0 : t.in / (double) t.stored);
    }

    /** Walks the streams in one input, printing each block's line and adding it up. */
    private final class Reader {
        private final InputStream in;
        private final PrintWriter out;
        private final BlockDecoder decoder;
        private final FrameParser parser;
        private final Map<RungKey, Totals> totals;
        private BlockHeader header;
        private final byte[] headerBytes = new byte[Math.max(FrameFormat.STREAM_HEADER_LENGTH, FrameFormat.BLOCK_HEADER_LENGTH)];
        private byte[] payload = new byte[0];
        private byte[] decoded = new byte[0];
        private long offset;

        Reader(InputStream in, PrintWriter out, BlockDecoder decoder, Map<RungKey, Totals> totals) {
            this.in = in;
            this.out = out;
            this.decoder = decoder;
            // No ceiling below the format's: inspect reports on whatever a writer may produce.
            this.parser = new FrameParser(decoder, FrameFormat.MAX_BLOCK_LENGTH_LIMIT);
            this.totals = totals;
        }

        /** Reads every stream to its end marker; returns how many there were. */
        int readAll() throws IOException {
            int streams = 0;
            while (readFully(headerBytes, FrameFormat.STREAM_HEADER_LENGTH, "stream header", true)) {
                parser.streamHeader(headerBytes, 0);
                streams++;
                if (!summaryOnly) {
                    out.printf(Locale.ROOT, "stream %d at offset %,d%n", streams,
                            offset - FrameFormat.STREAM_HEADER_LENGTH);
                    out.printf(Locale.ROOT, "  %8s %16s %-12s %10s %10s %9s%n", "block", "offset", "rung", "in",
                            "stored", "ratio");
                }
                readBlocks();
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
                Totals t = totals.computeIfAbsent(key, k -> new Totals());
                t.blocks++;
                t.in += header.uncompressedLength();
                t.stored += header.storedLength();
                if (!summaryOnly) {
                    out.printf(Locale.ROOT, "  %8d %,16d %-12s %,10d %,10d %8.2fx%n", index, position, key.label(),
                            header.uncompressedLength(), header.storedLength(),
                            header.uncompressedLength() / (double) header.storedLength());
                }
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
