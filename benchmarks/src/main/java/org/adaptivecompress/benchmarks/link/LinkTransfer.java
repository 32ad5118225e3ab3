package org.adaptivecompress.benchmarks.link;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.Future;
import org.adaptivecompress.stream.RateLimitedInputStream;
import org.adaptivecompress.stream.RateLimitedOutputStream;

/**
 * Sends one input over real loopback TCP through an emulated link and times it: from the first
 * byte written to the last byte decoded and verified by the receiver, which runs on its own
 * thread in this JVM and compares every byte with the input.
 */
public final class LinkTransfer {

    /**
     * A change of the link rate during the transfer: once the receiver has verified
     * {@code afterFraction} of the input, the link runs at {@code bytesPerSecond}. Keyed to the
     * data rather than the clock, so every contender, fast or slow, meets the same stretch of
     * data on the slow link and is rewarded for sending it in fewer bytes.
     */
    public record RateStep(double afterFraction, long bytesPerSecond) {}

    /** The outcome of one transfer. */
    public record Result(double seconds, long wireBytes, boolean verified, List<RungTimeline.Point> rungs) {}

    private LinkTransfer() {}

    /**
     * Sends {@code input} with {@code contender} over a link that starts at {@code bytesPerSecond}
     * and follows {@code steps}.
     */
    public static Result run(Contender contender, LinkInput input, long bytesPerSecond, List<RateStep> steps)
            throws IOException, InterruptedException {
        try (LoopbackConnection connection = LoopbackConnection.open("link-" + contender.name())) {
            CountingOutputStream counted = new CountingOutputStream(connection.out());
            RateLimitedOutputStream link = new RateLimitedOutputStream(counted, bytesPerSecond);
            // With steps, the receiving end is paced too (see StepSchedule); at a constant rate
            // the sender's bucket alone sets the pace, as it always has.
            RateLimitedInputStream pacedIn = steps.isEmpty() ? null
                    : new RateLimitedInputStream(connection.in(), bytesPerSecond);
            InputStream socketIn = pacedIn == null ? connection.in() : pacedIn;
            StepSchedule schedule = new StepSchedule(link, pacedIn, steps, input.length());
            Future<long[]> receiver = connection.receive(() -> receive(contender, input, socketIn, schedule));
            long start = System.nanoTime();
            RungTimeline timeline = new RungTimeline(start);
            contender.send(input, steps.isEmpty() ? link : new SmallWrites(link), timeline);
            long[] received = LoopbackConnection.await(receiver);
            double seconds = (received[0] - start) / 1e9;
            return new Result(seconds, counted.count, received[1] == 1, timeline.points());
        }
    }

    /** Reads and checks everything; returns {end nanos, 1 if every byte matched the input}. */
    private static long[] receive(Contender contender, LinkInput expected, InputStream socketIn,
            StepSchedule schedule) throws IOException {
        byte[] buffer = new byte[64 << 10];
        long position = 0;
        boolean same = true;
        try (InputStream in = contender.decoder(socketIn)) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                same = same && expected.matches(position, buffer, n);
                position += n;
                schedule.verified(position);
            }
        }
        long end = System.nanoTime();
        return new long[] {end, same && position == expected.length() ? 1 : 0};
    }

    /**
     * Applies the rate steps from the receiving thread, as its verified count crosses each
     * step's fraction, to both ends of the link. A thread polling that count every millisecond
     * lagged by several milliseconds on two busy cores, in which a fast contender (zstd:1 at
     * 1 Gbit/s verifies a megabyte in 2 ms) sent part of the slow stretch at the old rate: it
     * finished some runs of the step scenario in 0.44 s where the slow stretch alone takes
     * 0.87 s at its ratio. The sender's end alone missed the same way: at the drop, the socket
     * buffers held 0-1.4 MB that had passed its bucket and not yet been read (traced over eight
     * runs of the default), and those crossed at 1000 Mbit/s; the step took 0.49-0.92 s with
     * that lag. Paced at the receiving end as well, every byte read after the drop crosses at
     * the slow rate, while the sender's end still makes the sender feel the drop at once.
     */
    private static final class StepSchedule {
        private final RateLimitedOutputStream sendingEnd;
        private final RateLimitedInputStream receivingEnd;
        private final List<RateStep> steps;
        private final long length;
        private int next;

        StepSchedule(RateLimitedOutputStream sendingEnd, RateLimitedInputStream receivingEnd, List<RateStep> steps,
                long length) {
            this.sendingEnd = sendingEnd;
            this.receivingEnd = receivingEnd;
            this.steps = steps;
            this.length = length;
        }

        void verified(long position) {
            while (next < steps.size() && position >= steps.get(next).afterFraction() * length) {
                long rate = steps.get(next).bytesPerSecond();
                sendingEnd.setBytesPerSecond(rate);
                receivingEnd.setBytesPerSecond(rate);
                next++;
            }
        }
    }

    /**
     * Hands the rate limiter at most 4 KiB per write, the least its bucket ever holds. A write
     * larger than the bucket at the new rate never gets its tokens once the rate drops under it
     * (core's {@code RateLimitedOutputStream} sizes each piece from the rate when the write
     * began), so a transfer whose rate steps down mid-write would stall without this.
     */
    private static final class SmallWrites extends FilterOutputStream {
        private static final int PIECE = 4096;

        SmallWrites(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                int n = Math.min(len, PIECE);
                out.write(b, off, n);
                off += n;
                len -= n;
            }
        }
    }

    /** Counts the bytes that cross the link. */
    private static final class CountingOutputStream extends FilterOutputStream {
        private volatile long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
