package org.adaptivecompress.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;

/**
 * The statistics of many streams as one: every channel of a Netty server, every file a Hadoop
 * job writes. Streams made with {@link AdaptiveCompressionOptions.Builder#statisticsGroup} join
 * when they start and leave when they close; a stream that left still counts in the sums, so
 * the group's counts never decrease and a metrics registry can read them as counters.
 * Thread-safe; {@link #statistics()} costs one snapshot per open stream.
 *
 * <p>Every stream of a group must climb the group's ladder, since counts are kept per rung. A
 * stream that is never closed stays in the group as open, and the group keeps it reachable:
 * close streams (Netty's encoder does when its channel closes).
 */
public final class StatisticsGroup {

    /** The JVM's shared groups, one per ladder; see {@link #shared}. */
    private static final ConcurrentMap<Ladder, StatisticsGroup> SHARED = new ConcurrentHashMap<>();

    private final long startNanos = System.nanoTime();
    private final Set<Membership> open = new LinkedHashSet<>();
    private final Ladder ladder;
    /** The sum of the streams that left, or null before the first left. */
    private CompressionStatistics finished;

    /** An empty group of streams that climb the default ladder; its statistics start now. */
    public StatisticsGroup() {
        this(Ladder.defaultLadder());
    }

    /** An empty group of streams that climb {@code ladder}; its statistics start now. */
    public StatisticsGroup(Ladder ladder) {
        this.ladder = Objects.requireNonNull(ladder, "ladder is null");
    }

    /**
     * The JVM's group for streams of {@code ladder}, the same object every call: where a
     * framework makes the streams from a class name (Spark's codec, Hadoop's), every stream its
     * codecs write in this JVM counts in it.
     */
    public static StatisticsGroup shared(Ladder ladder) {
        return SHARED.computeIfAbsent(Objects.requireNonNull(ladder, "ladder is null"), StatisticsGroup::new);
    }

    /** The ladder every stream of the group climbs. */
    public Ladder ladder() {
        return ladder;
    }

    /**
     * Counts the stream whose snapshots {@code source} gives until {@link Membership#leave()}.
     * Pipelines call it for streams made with this group in their options.
     *
     * @throws IllegalArgumentException if the stream's ladder is not the group's
     */
    public Membership join(Supplier<CompressionStatistics> source) {
        Objects.requireNonNull(source, "source is null");
        Ladder streamLadder = source.get().ladder();
        if (!ladder.equals(streamLadder)) {
            throw new IllegalArgumentException("a stream of ladder " + streamLadder
                    + " cannot join a group whose streams climb " + ladder);
        }
        synchronized (this) {
            Membership m = new Membership(source);
            open.add(m);
            return m;
        }
    }

    /** Streams counted now, that have joined and not left. */
    public synchronized int openStreams() {
        return open.size();
    }

    /**
     * The sum of every stream that joined, open or left (see {@link CompressionStatistics#sum}
     * for what adds up how): all zero before the first joined.
     */
    public CompressionStatistics statistics() {
        List<Membership> members;
        synchronized (this) {
            members = new ArrayList<>(open);
        }
        List<CompressionStatistics> snapshots = new ArrayList<>(members.size());
        for (Membership m : members) {
            snapshots.add(m.source.get());
        }
        synchronized (this) {
            // A stream that left while the snapshots were taken is in the new finished sum: drop its snapshot.
            for (int i = members.size() - 1; i >= 0; i--) {
                if (!open.contains(members.get(i))) {
                    snapshots.remove(i);
                }
            }
            return CompressionStatistics.sum(ladder, snapshots, finished, startNanos);
        }
    }

    /** A stream's place in a group, from {@link #join} to {@link #leave()}. */
    public final class Membership {
        private final Supplier<CompressionStatistics> source;

        private Membership(Supplier<CompressionStatistics> source) {
            this.source = source;
        }

        /**
         * The stream has ended: its last snapshot joins the group's sums of finished streams.
         * Idempotent.
         */
        public void leave() {
            CompressionStatistics last = source.get();
            synchronized (StatisticsGroup.this) {
                if (open.remove(this)) {
                    finished = CompressionStatistics.sum(ladder, List.of(last), finished, startNanos);
                }
            }
        }
    }
}
