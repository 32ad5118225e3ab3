package org.adaptivecompress.control;

/**
 * What the writing thread spends per input byte outside the codec, whatever the rung: the
 * application filling the block, framing, the checksum, queueing. Negligible next to a codec,
 * it is what bounds raw, whose codec time alone is a memory copy, so {@link ThroughputController}
 * adds it to every rung's compression time.
 *
 * <p>Not thread-safe; owned by one controller.
 */
final class WriterOverhead {

    /** Weights of a sample below and above the estimate (see learn). */
    private static final double FALL = 0.5;
    private static final double RISE = 0.05;
    /** Blocks queued behind a backlog, with no sample between, after which the estimate counts as stale (see learn). */
    static final int STALE_BLOCKS = 16;

    /** Nanoseconds per input byte; NaN until measured. */
    private double perByte = Double.NaN;
    /** When the last block was observed; -1 before the first. */
    private long lastNanos = -1;
    /** Blocks since the last sample taken with the FIFO empty. */
    private int sinceSample;

    /** Nanoseconds per input byte the writer spends outside the codec; NaN until measured. */
    double nanosPerByte() {
        return perByte;
    }

    /**
     * Learns the per-byte work outside the codec from the time between two blocks less the
     * codec's time and less the time the writer spent blocked in the stream (for room, a
     * flush, the sink's first write), when the FIFO was empty as the block started. Only with
     * one compressing thread, where that time is the writer's own. Counted in, the writer's
     * wait for the first write of a 1 Mbit/s link (170 ms) made every rung look as slow as
     * 0.8 MB/s, and the stream kept zstd:1 for a whole transfer that xz:6 would have sent in a
     * fifth fewer bytes.
     *
     * <p>A sample is that work plus any time the writer lost its core (to the sender, the
     * receiver, the JIT at start-up), which only ever adds: so the estimate moves half-way
     * to a lower sample and a twentieth of the way to a higher one. An average would keep the
     * start-up's samples, several times the steady cost, and, as samples stop while the FIFO
     * holds a backlog, keep them for good: every codec then looks slower than it is next to
     * raw, and raw blocks get mixed in on links a fast codec alone would fill. Samples taken
     * with a backlog would correct that, but there the sender and receiver compete for the
     * writer's core: taken to lower the estimate only, they made compression look cheap next
     * to raw on unthrottled loopback and cost it a third of its speed.
     *
     * <p>Except once no block has begun with the FIFO empty for {@value #STALE_BLOCKS} blocks:
     * then the estimate follows the lower of those samples too. Without that, an estimate that
     * one pause raised never came down where it mattered most. On JSON at 1 Gbit/s the first
     * sample with the FIFO empty, 20 ns a byte (a 2.9 ms pause in a 128 KiB block), made raw,
     * LZ4 and zstd:1 all look like 44-49 MB/s; raw's FIFO, full from then on, gave no other
     * sample, and the stream sent 1,557 of 1,908 blocks raw (1.7 s; with this rule 0.40-0.71 s). A
     * start-up sample of 7.4 ns did the same (1.9 s), and later pauses of 15-25 ns a byte left
     * zstd:1 looking slower than LZ4 fills the link, so LZ4, its FIFO full, held the rest of
     * the transfer (docs/data/writer-overhead-stale.txt).
     */
    void learn(Observation o) {
        long gap = o.nanoTime() - lastNanos - o.compressNanos() - o.writerWaitNanos();
        boolean measurable = lastNanos >= 0 && o.workers() == 1 && gap >= 0 && o.uncompressedLength() > 0;
        lastNanos = o.nanoTime();
        if (!measurable) {
            return;
        }
        double sample = (double) gap / o.uncompressedLength();
        if (o.fifoBytesAtBlockStart() == 0) {
            sinceSample = 0;
            double weight = sample < perByte ? FALL : RISE;
            perByte = Double.isNaN(perByte) ? sample : perByte + weight * (sample - perByte);
        } else if (++sinceSample > STALE_BLOCKS && sample < perByte) {
            perByte += FALL * (sample - perByte);
        }
    }
}
