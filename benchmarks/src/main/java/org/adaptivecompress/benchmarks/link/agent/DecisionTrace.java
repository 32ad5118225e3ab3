package org.adaptivecompress.benchmarks.link.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.LinkSample;
import org.adaptivecompress.control.Observation;

/**
 * Every decision of one transfer, as a CSV line: what the controller saw of the block and the
 * link, and what it chose and why. The observations and decisions (immutable) are kept while
 * the transfer runs, so tracing adds neither formatting nor file writes to the stream's hot
 * path, and written once it ends.
 */
final class DecisionTrace implements DecisionListener {

    /** The system property naming the directory that sender agents write traces into. */
    static final String DIRECTORY_PROPERTY = "adaptive.trace.dir";
    private static final String HEADER = "block,seconds,rung,stored_bytes,compress_us,fifo_bytes,writer_wait_us,"
            + "written_bytes,span_bytes,span_us,stalled,next_rung,reason,link_mb_s,goodput_mb_s\n";

    private final long startNanos;
    private final List<Observation> observations = new ArrayList<>();
    private final List<Decision> decisions = new ArrayList<>();

    DecisionTrace(long startNanos) {
        this.startNanos = startNanos;
    }

    @Override
    public synchronized void decided(Observation o, Decision d) {
        observations.add(o);
        decisions.add(d);
    }

    /** Writes the trace to {@code file}. */
    synchronized void writeTo(Path file) throws IOException {
        StringBuilder lines = new StringBuilder(HEADER);
        for (int i = 0; i < observations.size(); i++) {
            Observation o = observations.get(i);
            Decision d = decisions.get(i);
            LinkSample l = o.link();
            lines.append(String.format(Locale.ROOT, "%d,%.6f,%d,%d,%.1f,%d,%.1f,%d,%d,%.1f,%b,%d,%s,%.3f,%.3f%n",
                    o.blockNumber(), (o.nanoTime() - startNanos) / 1e9, o.rung(), o.storedLength(),
                    o.compressNanos() / 1e3, o.fifoBytes(), o.writerWaitNanos() / 1e3, l.writtenBytes(),
                    l.fullSpanBytes(), l.fullSpanNanos() / 1e3, l.stalled(), d.rung(), d.reason(),
                    d.linkBytesPerSecond() / 1e6, d.predictedGoodput() / 1e6));
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, lines, StandardCharsets.UTF_8);
    }
}
