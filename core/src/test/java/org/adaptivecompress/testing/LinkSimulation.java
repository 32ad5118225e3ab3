package org.adaptivecompress.testing;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.LongToDoubleFunction;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;

/**
 * A deterministic simulation of the pipeline for testing controllers without wall time: a
 * simulated clock, a link whose rate may change by block, and per-rung compression speed and
 * ratio with multiplicative noise from a fixed seed.
 *
 * <p>Each block takes {@code blockSize / speed} seconds to compress while the link drains the
 * FIFO; the frame then joins the FIFO, waiting for room if it is full. The controller sees the
 * same {@link Observation}s the real engine builds. As in the engine, a block at a rung whose
 * ratio is below 32/31 is stored raw and reported incompressible, and the blocks after it are
 * stored raw without trying, 1, 2, 4 ... up to 64 of them as retries keep failing, unless the
 * controller says trying costs no time ({@link LevelController#skipAfterIncompressible()}). A
 * raw frame that finds the FIFO empty is written by the writer itself, when the controller
 * {@linkplain LevelController#learnsFromDirectWrites() learns from that}: into a sink that
 * buffers {@value #SINK_BUFFER} bytes ahead of the link, as a socket does, waiting for room when
 * it is full.
 */
public final class LinkSimulation {

    /** How each rung behaves on some kind of data: input bytes per second and ratio. */
    public static final class Profile {
        final double[] speed;
        final double[] ratio;

        /** {@code speed[r]} input bytes per second and {@code ratio[r]} at rung r; rung 0 is raw. */
        public Profile(double[] speed, double[] ratio) {
            this.speed = speed.clone();
            this.ratio = ratio.clone();
        }

        /** Scaled from megabytes per second. */
        public static Profile ofMegabytes(double[] mbps, double[] ratio) {
            return new Profile(Arrays.stream(mbps).map(v -> v * 1e6).toArray(), ratio);
        }

        /** Rungs in this profile. */
        public int size() {
            return speed.length;
        }

        /** Input bytes per second that rung r delivers over a link of {@code link} bytes per second. */
        public double delivered(int r, double link) {
            return Math.min(speed[r], link * (ratio[r] < 32.0 / 31 ? 1 : ratio[r]));
        }

        /** The rung that delivers the most over {@code link}. */
        public int bestRung(double link) {
            int best = 0;
            for (int r = 1; r < size(); r++) {
                if (delivered(r, link) > delivered(best, link)) {
                    best = r;
                }
            }
            return best;
        }
    }

    /** What happened to each block. */
    public static final class Result {
        private final int[] rungs;
        private final double seconds;
        private final long inputBytes;

        Result(int[] rungs, double seconds, long inputBytes) {
            this.rungs = rungs;
            this.seconds = seconds;
            this.inputBytes = inputBytes;
        }

        /** The rung block i was stored at (raw when it did not shrink or was skipped as incompressible). */
        public int rung(int block) {
            return rungs[block];
        }

        /** Blocks simulated. */
        public int blocks() {
            return rungs.length;
        }

        /** Simulated seconds until the last byte left the link. */
        public double seconds() {
            return seconds;
        }

        /** Input bytes per simulated second. */
        public double throughput() {
            return inputBytes / seconds;
        }

        /** How often the rung changed between blocks {@code from} (inclusive) and {@code to} (exclusive). */
        public int changes(int from, int to) {
            int n = 0;
            for (int i = Math.max(1, from); i < to; i++) {
                if (rungs[i] != rungs[i - 1]) {
                    n++;
                }
            }
            return n;
        }

        /** The rungs, block by block. */
        public String trace() {
            return Arrays.toString(rungs);
        }
    }

    /** Bytes the sink buffers beyond the link (a socket's send buffer), for frames the writer writes itself. */
    static final double SINK_BUFFER = 256 * 1024;
    /** Bytes per second the writer copies into the sink's buffer. */
    static final double COPY_SPEED = 10e9;

    private final int blockSize;
    private final long fifoCapacity;
    private final double noise;
    private final long seed;

    /**
     * @param blockSize input bytes per block
     * @param fifoCapacity FIFO bytes
     * @param noise relative noise on each block's speed and ratio, e.g. 0.1 for ±10 %
     * @param seed the noise's seed
     */
    public LinkSimulation(int blockSize, long fifoCapacity, double noise, long seed) {
        this.blockSize = blockSize;
        this.fifoCapacity = fifoCapacity;
        this.noise = noise;
        this.seed = seed;
    }

    /**
     * Runs {@code blocks} blocks through {@code controller}.
     *
     * @param profileByBlock the data's profile for block i (data may change kind)
     * @param linkByBlock the link's bytes per second while block i is compressed and queued
     */
    public Result run(LevelController controller, int blocks, java.util.function.IntFunction<Profile> profileByBlock,
            LongToDoubleFunction linkByBlock) {
        SplittableRandom random = new SplittableRandom(seed);
        int top = profileByBlock.apply(0).size() - 1;
        int rung = controller.initialRung(top);
        int[] rungs = new int[blocks];
        double clock = 0;
        double fifo = 0;
        double drained = 0;
        int skipRemaining = 0;
        int skipRun = 1;
        double waited = 0;
        double wroteDirectly = 0;
        double sinkBuffered = 0;
        long directBytes = 0;
        for (int i = 0; i < blocks; i++) {
            Profile profile = profileByBlock.apply(i);
            double link = linkByBlock.applyAsDouble(i);
            if (skipRemaining > 0 && !controller.skipAfterIncompressible()) {
                skipRemaining = 0;
                skipRun = 1;
            }
            int tried = skipRemaining > 0 ? 0 : rung;
            double fifoAtStart = fifo;
            double compressSeconds = blockSize / (profile.speed[tried] * jitter(random));
            double sendable = link * compressSeconds;
            double fromSink = Math.min(sinkBuffered, sendable); // written directly earlier: ahead of the FIFO
            sinkBuffered -= fromSink;
            double sent = Math.min(fifo, sendable - fromSink);
            fifo -= sent;
            drained += sent;
            // The link idles once the sink's buffer and the FIFO have nothing left for it.
            double linkIdle = Math.max(0, compressSeconds - (fromSink + sent) / link);
            clock += compressSeconds;
            double ratio = profile.ratio[tried] * jitter(random);
            boolean failed = tried > 0 && ratio < 32.0 / 31;
            boolean incompressible = skipRemaining > 0 || failed;
            rungs[i] = failed ? 0 : tried;
            if (skipRemaining > 0) {
                skipRemaining--;
            } else if (tried > 0) {
                skipRemaining = failed ? skipRun : 0;
                skipRun = failed ? Math.min(skipRun * 2, 64) : 1;
            }
            int stored = rungs[i] == 0 ? blockSize : (int) (blockSize / ratio);
            int frame = stored + 20;
            Observation o = Observation.builder()
                    .rung(rung).topRung(top)
                    .fifoAroundFrame((long) fifoAtStart, (long) fifo, frame)
                    .block(blockSize, stored, incompressible)
                    .compressNanos((long) (compressSeconds * 1e9))
                    .drainedBytes((long) drained)
                    .nanoTime((long) (clock * 1e9))
                    .writerWaitNanos((long) (waited * 1e9))
                    .directWrites(directBytes, (long) (wroteDirectly * 1e9))
                    .linkIdleNanos((long) (linkIdle * 1e9))
                    .build();
            waited = 0;
            wroteDirectly = 0;
            directBytes = 0;
            rung = controller.nextRung(o);
            if (rungs[i] == 0 && fifo == 0 && controller.learnsFromDirectWrites()) {
                // The writer writes the raw frame into the sink itself, as AdaptiveOutputStream
                // does: a copy, and a wait for room if the sink's buffer is full.
                double overflow = Math.max(0, sinkBuffered + frame - SINK_BUFFER);
                wroteDirectly = Math.max(frame / COPY_SPEED, overflow / link);
                directBytes = frame;
                sinkBuffered += frame - overflow;
                clock += wroteDirectly;
                waited = wroteDirectly;
                drained += frame;
                continue;
            }
            if (fifo + frame > fifoCapacity) {
                double wait = (sinkBuffered + fifo + frame - fifoCapacity) / link;
                sinkBuffered = 0;
                clock += wait;
                waited = wait;
                drained += fifo + frame - fifoCapacity;
                fifo = fifoCapacity - frame;
            }
            fifo += frame;
        }
        clock += (sinkBuffered + fifo) / linkByBlock.applyAsDouble(blocks - 1);
        return new Result(rungs, clock, (long) blocks * blockSize);
    }

    private double jitter(SplittableRandom random) {
        return noise == 0 ? 1 : 1 + noise * (2 * random.nextDouble() - 1);
    }
}
