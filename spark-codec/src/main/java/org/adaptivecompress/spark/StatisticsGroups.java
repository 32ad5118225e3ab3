package org.adaptivecompress.spark;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.metrics.StatisticsGroup;

/** One {@link StatisticsGroup} per ladder for a JVM: Spark makes a codec per use, all count together. */
final class StatisticsGroups {

    private final ConcurrentMap<Ladder, StatisticsGroup> groups = new ConcurrentHashMap<>();

    StatisticsGroup forLadder(Ladder ladder) {
        return groups.computeIfAbsent(ladder, StatisticsGroup::new);
    }
}
