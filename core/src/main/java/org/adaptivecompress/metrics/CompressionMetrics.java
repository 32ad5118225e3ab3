package org.adaptivecompress.metrics;

import static org.adaptivecompress.metrics.StatisticsMetric.Type.COUNTER;
import static org.adaptivecompress.metrics.StatisticsMetric.Type.GAUGE;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.CompressionStatistics;

/**
 * The metrics of an adaptive stream or a {@link StatisticsGroup}, read from
 * {@link CompressionStatistics}: what the Micrometer binder registers and an MBean shows. Counts
 * kept per rung carry the tag {@value #RUNG_TAG} (the rung as a ladder spec names it, such as
 * {@code zstd:3}); decisions carry {@value #REASON_TAG} (a {@link Reason} in lower case, such
 * as {@code link_dropped}).
 */
public final class CompressionMetrics {

    /** The tag of figures kept per rung. */
    public static final String RUNG_TAG = "rung";
    /** The tag of figures kept per reason. */
    public static final String REASON_TAG = "reason";
    /** What every name starts with. */
    public static final String PREFIX = "adaptive.compress.";

    private static final List<String> REASON_NAMES = reasonNames();
    private static final Function<CompressionStatistics, List<String>> RUNG_NAMES = s -> rungNames(s.ladder());

    /** Every metric, in the order of the reference. */
    public static final List<StatisticsMetric<CompressionStatistics>> ALL = List.of(
            StatisticsMetric.of(PREFIX + "rung", GAUGE, null,
                    "Index of the rung the next block uses, from 0 (raw); for a group, the rung most of its open"
                            + " streams are at.",
                    CompressionStatistics::currentRung),
            perRung("streams", GAUGE, null, "Open streams whose next block uses the rung.",
                    (s, r) -> s.streamsAt(r)),
            perRung("blocks", COUNTER, null, "Blocks stored at the rung; a block compressed again while queued"
                    + " counts at each rung it was stored at.", (s, r) -> s.blocksStored(r)),
            perRung("input", COUNTER, "bytes", "Uncompressed bytes of the blocks stored at the rung.",
                    (s, r) -> s.bytesInStored(r)),
            perRung("output", COUNTER, "bytes", "Bytes of the frames stored at the rung, block headers included.",
                    (s, r) -> s.bytesOutStored(r)),
            perRung("blocks.replaced", COUNTER, null, "Frames stored at the rung and replaced before they were"
                    + " sent, by compressing their block again at a higher rung because the link slowed.",
                    (s, r) -> s.blocksReplaced(r)),
            perRung("input.replaced", COUNTER, "bytes", "Uncompressed bytes of the frames stored at the rung and"
                    + " replaced: input minus this is what the receiver gets at the rung.",
                    (s, r) -> s.bytesInReplaced(r)),
            perRung("output.replaced", COUNTER, "bytes", "Bytes of the frames stored at the rung and replaced:"
                    + " output minus this is what was sent at the rung.", (s, r) -> s.bytesOutReplaced(r)),
            StatisticsMetric.of(PREFIX + "blocks.incompressible", COUNTER, null,
                    "Blocks that did not shrink enough (stored raw, or kept in their history at about their size),"
                            + " or were stored raw untried after such blocks.",
                    CompressionStatistics::incompressibleBlocks),
            StatisticsMetric.of(PREFIX + "cpu", COUNTER, "seconds",
                    "CPU time the streams' threads spent on blocks a codec compressed (codec, copy and checksum), on"
                            + " their CPU clocks: its rate is the cores compression uses, the figure a cpu-budget bounds.",
                    s -> s.cpuNanos() / 1e9),
            StatisticsMetric.of(PREFIX + "rung.changes", COUNTER, null, "Times the rung changed.",
                    CompressionStatistics::rungChanges),
            StatisticsMetric.tagged(PREFIX + "decisions", COUNTER, null,
                    "The controller's decisions, one per block, by the rule that decided (see Reason).", REASON_TAG,
                    s -> REASON_NAMES, (s, i) -> s.decisions(Reason.values()[i])),
            StatisticsMetric.of(PREFIX + "link.rate", GAUGE, "bytes.per.second",
                    "The link's rate the controller's last decision assumed; NaN if it does not model the link"
                            + " or has not measured it yet; for a group, the mean over its open streams.",
                    CompressionStatistics::linkBytesPerSecond),
            StatisticsMetric.of(PREFIX + "fifo", GAUGE, "bytes",
                    "Bytes queued for the link at the last decision, summed over a group's open streams.",
                    CompressionStatistics::fifoBytes),
            StatisticsMetric.of(PREFIX + "workers", GAUGE, null,
                    "Workers compressing side by side for the last block, summed over a group's open streams.",
                    CompressionStatistics::workers),
            StatisticsMetric.of(PREFIX + "history.memory.native", GAUGE, "bytes",
                    "Native memory the streams' histories hold in the writer (zstd windows, match tables and buffers,"
                            + " estimated from their parameters), summed over a group's open streams; 0 without histories.",
                    CompressionStatistics::historyNativeBytes),
            StatisticsMetric.of(PREFIX + "history.memory.heap", GAUGE, "bytes",
                    "Heap the streams' histories hold in the writer (xz dictionaries and match finders, the stream's"
                            + " last 2 MiB), summed over a group's open streams; 0 without histories.",
                    CompressionStatistics::historyHeapBytes));

    private CompressionMetrics() {}

    /** The values of the {@value #RUNG_TAG} tag for {@code ladder}: each rung as a ladder spec names it. */
    public static List<String> rungNames(Ladder ladder) {
        List<String> names = new ArrayList<>(ladder.size());
        for (Rung r : ladder.rungs()) {
            names.add(r.toString());
        }
        return names;
    }

    private static StatisticsMetric<CompressionStatistics> perRung(String name, StatisticsMetric.Type type, String unit,
            String description, ToDoubleBiFunction<CompressionStatistics, Integer> value) {
        return StatisticsMetric.tagged(PREFIX + name, type, unit, description, RUNG_TAG, RUNG_NAMES, value);
    }

    private static List<String> reasonNames() {
        List<String> names = new ArrayList<>();
        for (Reason r : Reason.values()) {
            names.add(r.name().toLowerCase(Locale.ROOT));
        }
        return List.copyOf(names);
    }
}
