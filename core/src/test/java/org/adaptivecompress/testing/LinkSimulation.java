package org.adaptivecompress.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntFunction;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.internal.engine.SinkMeter;

/**
 * A deterministic simulation of the pipeline, for testing controllers without wall time: the
 * writer compresses blocks and queues their frames in the FIFO; a sender writes the FIFO into a
 * kernel's send buffer in 64 KiB writes; the link drains that buffer at a rate that may change
 * with time. Time advances in steps of {@value #STEP_MICROS} µs.
 *
 * <p>The send buffer behaves as Linux's does: a write copies what fits and, when the buffer is
 * full, blocks until a third of it is free. So, as on a real link, writes return at once while
 * the buffer has room and a slow link shows itself only once it is full. The controller sees
 * the same {@link Observation}s the real stream builds, its link timed by a real
 * {@link SinkMeter} on the simulated clock. As in the engine, a block at a rung whose ratio is
 * below 32/31 is stored raw and reported incompressible, and the blocks after it are stored raw
 * without trying, 1, 2, 4 ... up to 64 of them as retries keep failing, unless the controller
 * says trying costs no time. A raw frame that finds the FIFO empty is written by the writer
 * itself when the controller learns from that, and until the link has shown itself, to the
 * meter and to the controller, the writer compresses a block only once the sink has taken the
 * frames before it, as the stream does.
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

        /** Input bytes per second of rung r. */
        public double speed(int r) {
            return speed[r];
        }

        /** Ratio of rung r. */
        public double ratio(int r) {
            return ratio[r];
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
        private final int[] lengths;
        private final double[] queuedAt;
        private final List<Decision> decisions;
        private final double seconds;
        private final long inputBytes;

        Result(int[] rungs, int[] lengths, double[] queuedAt, List<Decision> decisions, double seconds) {
            this.rungs = rungs;
            this.lengths = lengths;
            this.queuedAt = queuedAt;
            this.decisions = decisions;
            this.seconds = seconds;
            this.inputBytes = Arrays.stream(lengths).asLongStream().sum();
        }

        /** Block i's input bytes: the length the controller chose for it (see {@link #maxBlockSize}). */
        public int length(int block) {
            return lengths[block];
        }

        /** The rung block i was stored at (raw when it did not shrink or was skipped as incompressible). */
        public int rung(int block) {
            return rungs[block];
        }

        /** Simulated seconds at which block i's frame was queued (or written by the writer). */
        public double queuedAt(int block) {
            return queuedAt[block];
        }

        /** The controller's decision after block i, for block i + 1. */
        public Decision decision(int block) {
            return decisions.get(block);
        }

        /** The first block queued at or after {@code seconds}, or the block count if none. */
        public int firstBlockAfter(double seconds) {
            for (int i = 0; i < queuedAt.length; i++) {
                if (queuedAt[i] >= seconds) {
                    return i;
                }
            }
            return queuedAt.length;
        }

        /** How many blocks were stored at {@code rung}. */
        public int blocksAt(int rung) {
            int n = 0;
            for (int r : rungs) {
                n += r == rung ? 1 : 0;
            }
            return n;
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

    /** The simulation's time step: finer than a raw block's time on a 10 Gbit/s link. */
    static final double STEP_MICROS = 10;
    private static final double STEP = STEP_MICROS * 1e-6;
    /** The sender's largest write, as the stream's. */
    static final int WRITE = 64 * 1024;
    /** Bytes per second a write copies into the send buffer. */
    static final double COPY_SPEED = 10e9;
    /** A writer blocked on a full send buffer wakes when this share of it is free, as on Linux. */
    static final double WAKE_SHARE = 1.0 / 3;
    /** Bytes of a frame's header. */
    private static final int HEADER = 20;

    /** Link rates (bytes per second) and the send buffer Linux grows for each, measured over tbf-shaped loopback. */
    private static final double[] BUFFER_AT_RATE = {125e3, 1.25e6, 12.5e6, 125e6, 1.25e9};
    private static final double[] BUFFER_BYTES = {344e3, 816e3, 1.6e6, 2.9e6, 4.2e6};
    /** What a new socket's send buffer starts at, before the link's acknowledgements grow it. */
    static final double FIRST_SEND_BUFFER = 64 * 1024;

    private final int blockSize;
    private int maxBlockSize;
    private final long fifoCapacity;
    private final long sendBuffer;
    private final double noise;
    private final long seed;
    private double writerNanosPerByte = 0.1;

    /**
     * @param blockSize input bytes per block: the shortest a controller may ask for
     * @param fifoCapacity FIFO bytes
     * @param sendBuffer bytes of the kernel's send buffer between the sender and the link, or
     *     {@link #LINUX} for a buffer that grows as Linux grows it for the link's rate
     * @param noise relative noise on each block's speed and ratio, e.g. 0.1 for ±10 %
     * @param seed the noise's seed
     */
    public LinkSimulation(int blockSize, long fifoCapacity, long sendBuffer, double noise, long seed) {
        this.blockSize = blockSize;
        this.maxBlockSize = blockSize;
        this.fifoCapacity = fifoCapacity;
        this.sendBuffer = sendBuffer;
        this.noise = noise;
        this.seed = seed;
    }

    /** The send buffer of {@link #LinkSimulation}: as Linux grows it (see {@link #linuxSendBuffer}). */
    public static final long LINUX = -1;

    /**
     * The send buffer Linux settles on for a link of {@code rate} bytes per second: from about
     * 340 KB at 1 Mbit/s to 4 MiB from 10 Gbit/s up, interpolated on a log scale.
     */
    public static double linuxSendBuffer(double rate) {
        if (rate <= BUFFER_AT_RATE[0]) {
            return BUFFER_BYTES[0];
        }
        for (int i = 1; i < BUFFER_AT_RATE.length; i++) {
            if (rate <= BUFFER_AT_RATE[i]) {
                double f = Math.log(rate / BUFFER_AT_RATE[i - 1]) / Math.log(BUFFER_AT_RATE[i] / BUFFER_AT_RATE[i - 1]);
                return BUFFER_BYTES[i - 1] + f * (BUFFER_BYTES[i] - BUFFER_BYTES[i - 1]);
            }
        }
        return BUFFER_BYTES[BUFFER_BYTES.length - 1];
    }

    /** The longest block the controller may ask for ({@link LevelController#blockLength}); default the block size. */
    public LinkSimulation maxBlockSize(int bytes) {
        this.maxBlockSize = bytes;
        return this;
    }

    /** The writer's own nanoseconds per input byte besides the codec (the application, copies); default 0.1. */
    public LinkSimulation writerNanosPerByte(double nanos) {
        this.writerNanosPerByte = nanos;
        return this;
    }

    /**
     * Runs {@code blocks} blocks of a stream over {@code ladder} through {@code controller}.
     *
     * @param profileByBlock the data's profile for block i (data may change kind); one entry per rung
     * @param linkAt the link's bytes per second at a simulated time in seconds
     */
    public Result run(LevelController controller, Ladder ladder, int blocks, IntFunction<Profile> profileByBlock,
            DoubleUnaryOperator linkAt) {
        return new Run(controller, ladder, blocks, profileByBlock, linkAt).go();
    }

    /** {@link #run(LevelController, Ladder, int, IntFunction, DoubleUnaryOperator)} over the default ladder. */
    public Result run(LevelController controller, int blocks, IntFunction<Profile> profileByBlock,
            DoubleUnaryOperator linkAt) {
        return run(controller, Ladder.defaultLadder(), blocks, profileByBlock, linkAt);
    }

    /** A write into the send buffer, by the sender or by the writer itself. */
    private final class KernelWrite {
        final long length;
        double remaining;
        boolean blocked;

        KernelWrite(long length) {
            this.length = length;
            this.remaining = length;
        }

        /** Copies what the buffer takes in one step; true once the write is done. */
        boolean step(Run run) {
            double capacity = run.sendBuffer();
            double free = capacity - run.buffered;
            if (blocked) {
                if (free < WAKE_SHARE * capacity) {
                    return false;
                }
                blocked = false;
            }
            double copy = Math.max(0, Math.min(remaining, Math.min(free, COPY_SPEED * STEP)));
            run.buffered += copy;
            remaining -= copy;
            if (remaining > 0 && capacity - run.buffered < 1) {
                blocked = true;
            }
            return remaining <= 0;
        }
    }

    private final class Run {
        final LevelController controller;
        final int blocks;
        final int top;
        final IntFunction<Profile> profileByBlock;
        final DoubleUnaryOperator linkAt;
        final SplittableRandom random = new SplittableRandom(seed);
        final SinkMeter meter = new SinkMeter(0);
        final int[] stored;
        final int[] lengths;
        final double[] queuedAt;
        final List<Decision> decisions = new ArrayList<>();

        double t;
        double buffered;
        /** Bytes the link has carried: a growing send buffer grows with them, as TCP's window does. */
        double carried;
        double grownBuffer;
        double fifo;
        long sinkTaken;
        KernelWrite sending;
        boolean meterQueued;

        int block;
        int rung;
        int skipRemaining;
        int skipRun = 1;
        double compressLeft;
        double compressSeconds;
        double fifoAtStart;
        int frame;
        int storedLength;
        boolean incompressible;
        boolean skipped;
        int tried;
        double writerWait;
        KernelWrite direct;
        boolean putting;
        /** Whether the writer waits before compressing, the link not shown yet, as the stream does. */
        boolean awaitingLink;

        Run(LevelController controller, Ladder ladder, int blocks, IntFunction<Profile> profileByBlock,
                DoubleUnaryOperator linkAt) {
            this.controller = controller;
            this.blocks = blocks;
            this.top = ladder.top();
            this.profileByBlock = profileByBlock;
            this.linkAt = linkAt;
            this.stored = new int[blocks];
            this.lengths = new int[blocks];
            this.queuedAt = new double[blocks];
            this.rung = controller.initialRung(ladder);
        }

        Result go() {
            startBlock();
            while (block < blocks || fifo > 0 || sending != null || direct != null || buffered > 0) {
                double drained = Math.min(buffered, linkAt.applyAsDouble(t) * STEP);
                buffered -= drained;
                carried += drained;
                stepSender();
                if (block < blocks) {
                    stepWriter();
                }
                t += STEP;
            }
            return new Result(stored, lengths, queuedAt, decisions, t);
        }

        private void stepSender() {
            if (sending == null && fifo > 0) {
                sending = new KernelWrite((long) Math.min(WRITE, Math.ceil(fifo)));
                meter.writeStarted(nanos(), sending.length);
            }
            if (sending != null && sending.step(this)) {
                fifo = Math.max(0, fifo - sending.length);
                sinkTaken += sending.length;
                meter.writeEnded(nanos(), sending.length);
                sending = null;
                tellQueued();
            }
        }

        private void stepWriter() {
            if (direct != null) {
                writerWait += STEP;
                if (direct.step(this)) {
                    sinkTaken += direct.length;
                    meter.writeEnded(nanos(), direct.length);
                    direct = null;
                    nextBlock();
                }
                return;
            }
            if (putting) {
                if (fifoCapacity - fifo >= frame) {
                    fifo += frame;
                    tellQueued();
                    putting = false;
                    nextBlock();
                } else {
                    writerWait += STEP;
                }
                return;
            }
            if (awaitingLink) {
                boolean linkUnknown = !meter.linkShown()
                        || !decisions.isEmpty() && decisions.get(decisions.size() - 1).reason() == Reason.STARTUP;
                if (linkUnknown && (fifo > 0 || sending != null)) {
                    writerWait += STEP;
                    return;
                }
                awaitingLink = false;
            }
            compressLeft -= STEP;
            if (compressLeft <= 0) {
                frameReady();
            }
        }

        private void startBlock() {
            Profile profile = profileByBlock.apply(block);
            if (skipRemaining > 0 && !controller.skipAfterIncompressible()) {
                skipRemaining = 0;
                skipRun = 1;
            }
            skipped = skipRemaining > 0;
            tried = skipped ? 0 : rung;
            int length = Math.max(blockSize, Math.min(maxBlockSize, controller.blockLength(blockSize, maxBlockSize)));
            lengths[block] = length;
            compressSeconds = length / (profile.speed[tried] * jitter());
            compressLeft = compressSeconds + length * writerNanosPerByte * 1e-9;
            double ratio = profile.ratio[tried] * jitter();
            boolean failed = tried > 0 && ratio < 32.0 / 31;
            incompressible = skipped || failed;
            stored[block] = failed ? 0 : tried;
            if (skipped) {
                skipRemaining--;
            } else if (tried > 0) {
                skipRemaining = failed ? skipRun : 0;
                skipRun = failed ? Math.min(skipRun * 2, 64) : 1;
            }
            storedLength = stored[block] == 0 ? length : (int) (length / ratio);
            frame = storedLength + HEADER;
            fifoAtStart = fifo;
            awaitingLink = true;
        }

        /** The block's frame is ready: the controller decides, then the frame is queued or written. */
        private void frameReady() {
            Observation o = Observation.builder()
                    .blockNumber(block).rung(rung).topRung(top)
                    .fifoAroundFrame((long) fifoAtStart, (long) fifo, frame)
                    .block(lengths[block], storedLength, incompressible).skipped(skipped)
                    .compressNanos((long) (compressSeconds * 1e9))
                    .drainedBytes(sinkTaken)
                    .nanoTime(nanos())
                    .writerWaitNanos((long) (writerWait * 1e9))
                    .link(meter.sample(nanos()))
                    .build();
            writerWait = 0;
            Decision d = controller.decide(o);
            decisions.add(d);
            int next = Math.min(d.rung(), top);
            boolean raw = stored[block] == 0;
            queuedAt[block] = t;
            rung = next;
            if (raw && fifo == 0 && sending == null && controller.learnsFromDirectWrites()) {
                direct = new KernelWrite(frame);
                meter.writeStarted(nanos(), frame);
            } else {
                putting = true;
            }
        }

        private void nextBlock() {
            block++;
            if (block < blocks) {
                startBlock();
            }
        }

        private void tellQueued() {
            boolean now = fifo > 0;
            if (now != meterQueued) {
                meterQueued = now;
                meter.queued(nanos(), now);
            }
        }

        /** The send buffer's size now: grown as TCP grows it, never shrunk, as Linux never shrinks it. */
        double sendBuffer() {
            if (sendBuffer != LINUX) {
                return sendBuffer;
            }
            grownBuffer = Math.max(grownBuffer,
                    Math.min(linuxSendBuffer(linkAt.applyAsDouble(t)), FIRST_SEND_BUFFER + carried));
            return grownBuffer;
        }

        private long nanos() {
            return (long) (t * 1e9);
        }

        private double jitter() {
            return noise == 0 ? 1 : 1 + noise * (2 * random.nextDouble() - 1);
        }
    }
}
