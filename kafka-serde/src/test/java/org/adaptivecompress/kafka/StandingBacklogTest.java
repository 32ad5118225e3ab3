package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The producer's backlog as a controller sees it, on a simulated clock: a serializer writing at a
 * steady rate, decisions at a steady interval, and acknowledgements that trail the serialized
 * bytes by a fixed wait (a producer's linger and round trip) or by what a slower link lets through.
 */
class StandingBacklogTest {

    private static final long MS = 1_000_000L;

    /** Serializes at {@code bytesPerMs}, decides every {@code decisionMs}; acknowledgements trail by a wait. */
    private static final class Producer {
        final StandingBacklog backlog;
        double bytesPerMs;
        final double decisionMs;
        double nowMs;
        /** Bytes serialized before the current rate began, and when it began. */
        long serializedBefore;
        double rateSinceMs;
        double rateBeforeBytesPerMs;

        Producer(double bytesPerMs, double decisionMs) {
            this(bytesPerMs, decisionMs, 0);
        }

        Producer(double bytesPerMs, double decisionMs, long lingerMillis) {
            this.bytesPerMs = bytesPerMs;
            this.decisionMs = decisionMs;
            this.backlog = new StandingBacklog(lingerMillis);
        }

        /** From now on serializes at {@code newBytesPerMs}. */
        void rate(double newBytesPerMs) {
            serializedBefore = serializedAt(nowMs);
            rateSinceMs = nowMs;
            rateBeforeBytesPerMs = bytesPerMs;
            bytesPerMs = newBytesPerMs;
        }

        long serializedAt(double ms) {
            if (ms < rateSinceMs) {
                return (long) (serializedBefore - (rateSinceMs - ms) * rateBeforeBytesPerMs);
            }
            return serializedBefore + (long) (bytesPerMs * Math.max(0, ms - rateSinceMs));
        }

        /** The next decision with the bytes serialized {@code waitMs} ago acknowledged. */
        long decideWithWait(double waitMs) {
            return decide(serializedAt(nowMs + decisionMs - waitMs));
        }

        long decide(long acknowledged) {
            nowMs += decisionMs;
            long serialized = serializedAt(nowMs);
            return backlog.observe(serialized, acknowledged, serialized - acknowledged, (long) (nowMs * MS));
        }
    }

    @Test
    void aFloorOfLingerAndRoundTripIsNotABacklogAtAnyRate() {
        for (double bytesPerMs : new double[] {500, 50_000, 500_000}) {
            Producer p = new Producer(bytesPerMs, 0.3);
            for (int i = 0; i < 1000; i++) {
                long seen = p.decideWithWait(6 + (i % 7) * 0.5); // 6-9 ms, as batches leave in turns
                if (i >= 100) {
                    assertThat(seen).as("decision %d at %.0f bytes/ms", i, bytesPerMs).isZero();
                }
            }
        }
    }

    @Test
    void batchesThatLingerBecauseTheProducerSlowedAreNotABacklog() {
        Producer p = new Producer(300_000, 0.2, 5); // 10 KB records at 300 MB/s: batches fill at once
        for (int i = 0; i < 500; i++) {
            p.decideWithWait(1);
        }
        p.rate(5_000); // zstd:19 on the producer thread: each batch now leaves after its 5 ms linger
        for (int i = 0; i < 200; i++) {
            long seen = p.decideWithWait(5 + 1.5 + (i % 5) * 0.3);
            assertThat(seen).as("decision %d after slowing down", i).isZero();
        }
    }

    @Test
    void aSlowProducerWhoseDecisionsAreSecondsApartStillReadsItsFloor() {
        Producer p = new Producer(1, 2000); // 32 records of 64 bytes every 2 s
        for (int i = 0; i < 50; i++) {
            long seen = p.decideWithWait(6);
            if (i >= 2) {
                assertThat(seen).as("decision %d", i).isZero();
            }
        }
    }

    @Test
    void bytesThatWaitLongerWithEveryByteQueuedAreABacklog() {
        Producer p = new Producer(100_000, 0.3);
        for (int i = 0; i < 200; i++) {
            p.decideWithWait(6);
        }
        // The link now takes half of what is serialized: the wait grows by 0.5 ms every ms.
        double dropMs = p.nowMs;
        long ackedAtDrop = p.serializedAt(dropMs - 6);
        int firstStanding = -1;
        for (int i = 0; i < 400; i++) {
            long acknowledged = ackedAtDrop + (long) ((p.nowMs + p.decisionMs - dropMs) * p.bytesPerMs / 2);
            long seen = p.decide(acknowledged);
            if (seen > 0 && firstStanding < 0) {
                firstStanding = i;
            }
            if (firstStanding >= 0) {
                assertThat(seen).as("decision %d", i).isEqualTo(p.serializedAt(p.nowMs) - acknowledged);
            }
        }
        // Twice the 6 ms floor plus 5 ms is 17 ms of wait, reached 22 ms after the drop.
        assertThat(firstStanding * p.decisionMs).isBetween(18.0, 26.0);
    }

    @Test
    void aBurstOfAcknowledgementsWhoseNewestBytesWaitedLittleLeavesTheBacklogStanding() {
        Producer p = new Producer(200, 5); // 200 KB/s, as under ProducerQuotaIT's quota
        for (int i = 0; i < 40; i++) {
            p.decideWithWait(6);
        }
        for (int i = 0; i < 40; i++) {
            assertThat(p.decideWithWait(300)).as("held by the quota, decision %d", i).isPositive();
        }
        // The quota lets a burst through: for 60 ms the bytes acknowledged are ones serialized 10 ms before.
        for (int i = 0; i < 12; i++) {
            assertThat(p.decideWithWait(10)).as("in the burst, decision %d", i).isPositive();
        }
        assertThat(p.decideWithWait(300)).isPositive();
    }

    @Test
    void aBacklogThatStoodStopsCountingOnceItsWaitsStayedShortForAnInterval() {
        Producer p = new Producer(200, 5);
        for (int i = 0; i < 40; i++) {
            p.decideWithWait(6);
        }
        for (int i = 0; i < 40; i++) {
            p.decideWithWait(300);
        }
        int decisionsPerInterval = (int) (StandingBacklog.INTERVAL_MILLIS / p.decisionMs);
        for (int i = 0; i < 3 * decisionsPerInterval; i++) {
            long seen = p.decideWithWait(6);
            if (i < decisionsPerInterval) {
                assertThat(seen).as("decision %d", i).isPositive();
            } else {
                assertThat(seen).as("decision %d", i).isZero();
            }
        }
    }

    @Test
    void aBacklogOlderThanEveryMarkStands() {
        Producer p = new Producer(500, 64);
        for (int i = 0; i < 20; i++) {
            p.decideWithWait(6);
        }
        long ackedAtQuota = p.serializedAt(p.nowMs - 6);
        for (int i = 0; i < StandingBacklog.MARKS + 50; i++) {
            long seen = p.decide(ackedAtQuota); // a quota: nothing more is acknowledged for a long time
            if (i >= 1) {
                assertThat(seen).as("decision %d", i).isPositive();
            }
        }
    }

    @Test
    void beforeTheFirstAcknowledgementTheBacklogStandsOnlyOnceItWaitedTheLingerAndAnInterval() {
        StandingBacklog backlog = new StandingBacklog(5);
        assertThat(backlog.observe(64 * 1024, 0, 64 * 1024, 1 * MS)).as("connecting").isZero();
        assertThat(backlog.observe(128 * 1024, 0, 128 * 1024, 20 * MS)).as("connecting").isZero();
        assertThat(backlog.observe(192 * 1024, 0, 192 * 1024, 105 * MS)).as("linger + interval not yet over").isZero();
        assertThat(backlog.observe(256 * 1024, 0, 256 * 1024, 107 * MS)).isEqualTo(256 * 1024);
    }

    @Test
    void anEmptyBacklogIsNone() {
        StandingBacklog backlog = new StandingBacklog(0);
        assertThat(backlog.observe(64 * 1024, 64 * 1024, 0, 1 * MS)).isZero();
    }
}
