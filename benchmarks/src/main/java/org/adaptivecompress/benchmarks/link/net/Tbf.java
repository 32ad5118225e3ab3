package org.adaptivecompress.benchmarks.link.net;

import java.util.List;

/**
 * The token bucket filter that shapes the namespace's loopback to a payload rate: the
 * {@code tc ... tbf} arguments for it.
 *
 * @param payloadBytesPerSecond the TCP payload rate wanted, what the plain copy should reach
 * @param burstFloor the least bucket, in bytes
 */
public record Tbf(long payloadBytesPerSecond, long burstFloor) {

    /**
     * tbf counts whole frames: at MTU 1500 a full segment carries 1448 payload bytes (20 bytes of
     * IP, 32 of TCP with timestamps) in 1514 bytes (14 of Ethernet header), so the bucket runs
     * that much faster than the payload rate.
     */
    static final double FRAME_PER_PAYLOAD = 1514.0 / 1448.0;
    /** A bucket must hold a full 1514-byte frame; below 2 ms of rate this keeps room for two and a bit. */
    static final long MIN_BURST = 4 << 10;
    /** Two milliseconds of rate: the qdisc's timer wakes late under load, and 0.05 ms of bucket lost a third of 10 Gbit/s. */
    static final double BURST_SECONDS = 0.002;
    /** At least 1 MiB of queue: TCP's start-up over a loopback RTT overshoots by hundreds of kilobytes, and 64 KiB dropped a third of a 10 Mbit/s transfer. */
    static final long MIN_QUEUE = 1 << 20;
    /** Else 20 ms of rate, the queue of a router on a short path: deep enough that the qdisc never drops. */
    static final double QUEUE_SECONDS = 0.020;
    /**
     * What tbf counts a 64 KiB GSO packet as: its payload and a header per segment. A bucket at
     * least this big queues such packets whole instead of cutting them into frames, and a packet
     * bigger than the bucket never leaves the queue.
     */
    static final long GSO_PACKET = 72 << 10;

    /** Validates. */
    public Tbf {
        if (payloadBytesPerSecond < 1 || payloadBytesPerSecond == Rates.UNLIMITED) {
            throw new IllegalArgumentException("a tbf needs a finite positive rate, was " + payloadBytesPerSecond);
        }
    }

    /** The tbf for a payload rate, added to an idle loopback. */
    public static Tbf of(long payloadBytesPerSecond) {
        return new Tbf(payloadBytesPerSecond, MIN_BURST);
    }

    /**
     * This rate as a change of {@code previous} while packets may be queued: if {@code previous}
     * queued whole GSO packets, the bucket stays big enough to pass them, or they would block
     * the queue for good (a step from 1 Gbit/s down to 10 Mbit/s stalled until its deadline).
     */
    public Tbf following(Tbf previous) {
        return previous.burstBytes() >= GSO_PACKET ? new Tbf(payloadBytesPerSecond, Math.max(burstFloor, GSO_PACKET))
                : this;
    }

    /** The rate tbf enforces, in bits per second of frames. */
    public long frameBitsPerSecond() {
        return Math.round(payloadBytesPerSecond * FRAME_PER_PAYLOAD * 8);
    }

    /** The bucket's size in bytes. */
    public long burstBytes() {
        return Math.max(burstFloor, Math.round(frameBitsPerSecond() / 8.0 * BURST_SECONDS));
    }

    /** The most bytes queued behind the bucket, in bytes. */
    public long limitBytes() {
        return burstBytes() + Math.max(MIN_QUEUE, Math.round(frameBitsPerSecond() / 8.0 * QUEUE_SECONDS));
    }

    /** {@code tbf rate Nbit burst B limit L}, to follow {@code tc qdisc add|change dev lo root}. */
    public List<String> args() {
        return List.of("tbf", "rate", frameBitsPerSecond() + "bit", "burst", Long.toString(burstBytes()), "limit",
                Long.toString(limitBytes()));
    }
}
