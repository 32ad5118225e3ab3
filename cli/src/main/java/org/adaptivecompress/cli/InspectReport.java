package org.adaptivecompress.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/** What {@code inspect} prints as it walks a file's streams and blocks: text for people, or JSON for scripts. */
interface InspectReport {

    /** Blocks, uncompressed and stored bytes of one rung. */
    final class Totals {
        long blocks;
        long in;
        long stored;

        void add(long uncompressed, long storedBytes) {
            blocks++;
            in += uncompressed;
            stored += storedBytes;
        }

        double ratio() {
            return stored == 0 ? 0.0 : in / (double) stored;
        }

        /** The sum of {@code parts}. */
        static Totals sum(Iterable<Totals> parts) {
            Totals all = new Totals();
            for (Totals t : parts) {
                all.blocks += t.blocks;
                all.in += t.in;
                all.stored += t.stored;
            }
            return all;
        }
    }

    /** Stream {@code number} (from 1) begins with its header at {@code offset}. */
    void streamStarted(int number, long offset);

    /**
     * A block of the current stream: its index in the stream, its header's offset in the file,
     * its rung and sizes, and whether it is a reset point (where a reader can start in a
     * stream with histories).
     */
    void block(long index, long offset, String rung, long in, long stored, boolean resetPoint);

    /** The current stream's end marker was read. */
    void streamEnded();

    /** The totals per rung (in ladder order) over {@code streams} streams, every block decoded if {@code verified}. */
    void summary(int streams, boolean verified, Map<String, Totals> perRung);

    /** A table per stream, one line a block, and the totals per rung. */
    final class Text implements InspectReport {
        private final PrintWriter out;
        private final boolean summaryOnly;

        Text(PrintWriter out, boolean summaryOnly) {
            this.out = out;
            this.summaryOnly = summaryOnly;
        }

        @Override
        public void streamStarted(int number, long offset) {
            if (!summaryOnly) {
                out.printf(Locale.ROOT, "stream %d at offset %,d%n", number, offset);
                out.printf(Locale.ROOT, "  %8s %16s %-12s %10s %10s %9s%n", "block", "offset", "rung", "in", "stored",
                        "ratio");
            }
        }

        @Override
        public void block(long index, long offset, String rung, long in, long stored, boolean resetPoint) {
            if (!summaryOnly) {
                out.printf(Locale.ROOT, "  %8d %,16d %-12s %,10d %,10d %8.2fx%s%n", index, offset, rung, in, stored,
                        in / (double) stored, resetPoint ? "  reset point" : "");
            }
        }

        @Override
        public void streamEnded() {
            // the next stream's header line separates them
        }

        @Override
        public void summary(int streams, boolean verified, Map<String, Totals> perRung) {
            out.printf(Locale.ROOT, "summary: %d stream%s%s%n", streams, streams == 1 ? "" : "s",
                    verified ? ", every block verified" : "");
            out.printf(Locale.ROOT, "  %-12s %10s %16s %16s %9s%n", "rung", "blocks", "in", "stored", "ratio");
            perRung.forEach(this::line);
            line("total", Totals.sum(perRung.values()));
        }

        private void line(String label, Totals t) {
            out.printf(Locale.ROOT, "  %-12s %,10d %,16d %,16d %8.2fx%n", label, t.blocks, t.in, t.stored, t.ratio());
        }
    }

    /**
     * One JSON document, written as the blocks are read so that a file of millions of blocks
     * needs no memory for them (a reset point's block also carries {@code "resetPoint":true}):
     * {@code {"streams":[{"offset":0,"blocks":[{"index":0,"offset":12,
     * "rung":"zstd:3","in":131072,"stored":30000}, ...]}, ...], "summary":{"streams":1,
     * "verified":false,"rungs":[{"rung":"zstd:3","blocks":8,"in":...,"stored":...}, ...],
     * "total":{...}}}}. With {@code --summary}, streams carry no blocks.
     */
    final class Json implements InspectReport {
        private final PrintWriter out;
        private final boolean summaryOnly;
        private boolean firstStream = true;
        private boolean firstBlock;

        Json(PrintWriter out, boolean summaryOnly) {
            this.out = out;
            this.summaryOnly = summaryOnly;
            out.print("{\"streams\":[");
        }

        @Override
        public void streamStarted(int number, long offset) {
            out.print(firstStream ? "" : ",");
            firstStream = false;
            out.print("{\"offset\":" + offset + (summaryOnly ? "" : ",\"blocks\":["));
            firstBlock = true;
        }

        @Override
        public void block(long index, long offset, String rung, long in, long stored, boolean resetPoint) {
            if (summaryOnly) {
                return;
            }
            out.print(firstBlock ? "" : ",");
            firstBlock = false;
            out.print("{\"index\":" + index + ",\"offset\":" + offset + ",\"rung\":\"" + rung + "\",\"in\":" + in
                    + ",\"stored\":" + stored + (resetPoint ? ",\"resetPoint\":true" : "") + "}");
        }

        @Override
        public void streamEnded() {
            out.print(summaryOnly ? "}" : "]}");
        }

        @Override
        public void summary(int streams, boolean verified, Map<String, Totals> perRung) {
            out.print("],\"summary\":{\"streams\":" + streams + ",\"verified\":" + verified + ",\"rungs\":[");
            boolean first = true;
            for (Map.Entry<String, Totals> e : perRung.entrySet()) {
                out.print((first ? "" : ",") + "{\"rung\":\"" + e.getKey() + "\"," + fields(e.getValue()) + "}");
                first = false;
            }
            out.println("],\"total\":{" + fields(Totals.sum(perRung.values())) + "}}}");
        }

        private static String fields(Totals t) {
            return "\"blocks\":" + t.blocks + ",\"in\":" + t.in + ",\"stored\":" + t.stored;
        }
    }
}
