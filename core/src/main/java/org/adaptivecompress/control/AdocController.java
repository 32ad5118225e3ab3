package org.adaptivecompress.control;

import org.adaptivecompress.codec.Ladder;

/**
 * The rule of AdOC (E. Jeannot, "Improving Middleware Performance with AdOC", INRIA RR-4400,
 * 2002), kept exact as the reference every other controller is measured against.
 *
 * <p>Start at rung 0 (raw). After each block, with {@code D} = FIFO bytes now minus FIFO bytes at
 * the block's start:
 * <ul>
 *   <li>{@code D < 0} (the FIFO drains: compression is the bottleneck): halve the rung;
 *   <li>{@code D > 0}, the FIFO holds more than {@code threshold} packets and the rung is below
 *       the top (the link is the bottleneck): go up one rung;
 *   <li>otherwise keep the rung.
 * </ul>
 * The paper used 8 KB packets and a threshold of 10 packets, the defaults here.
 */
public final class AdocController implements LevelController {

    /** The paper's packet size: 8 KB. */
    public static final int DEFAULT_PACKET_SIZE = 8 * 1024;
    /** The paper's threshold: the FIFO must hold more than 10 packets before the rung rises. */
    public static final int DEFAULT_THRESHOLD_PACKETS = 10;

    private final long thresholdBytes;

    /** The paper's rule with its own constants. */
    public AdocController() {
        this(DEFAULT_PACKET_SIZE, DEFAULT_THRESHOLD_PACKETS);
    }

    /**
     * The paper's rule with another packet size or threshold.
     *
     * @param packetSize bytes per packet, at least 1
     * @param thresholdPackets how many packets the FIFO must exceed before the rung rises, at least 0
     */
    public AdocController(int packetSize, int thresholdPackets) {
        if (packetSize < 1) {
            throw new IllegalArgumentException("packetSize must be at least 1, was " + packetSize);
        }
        if (thresholdPackets < 0) {
            throw new IllegalArgumentException("thresholdPackets must be at least 0, was " + thresholdPackets);
        }
        this.thresholdBytes = (long) packetSize * thresholdPackets;
    }

    @Override
    public int initialRung(Ladder ladder) {
        return 0;
    }

    @Override
    public Decision decide(Observation o) {
        long growth = o.fifoGrowth();
        int rung = o.rung();
        if (growth < 0) {
            return Decision.of(rung / 2, Reason.ADOC_DRAINED);
        }
        if (growth > 0 && o.fifoBytes() > thresholdBytes && rung < o.topRung()) {
            return Decision.of(rung + 1, Reason.ADOC_GREW);
        }
        return Decision.of(rung, Reason.ADOC_KEPT);
    }

    @Override
    public String toString() {
        return "adoc";
    }
}
