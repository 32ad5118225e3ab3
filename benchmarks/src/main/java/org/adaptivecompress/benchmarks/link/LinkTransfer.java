package org.adaptivecompress.benchmarks.link;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
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

    private static final long TIMEOUT_MINUTES = 10;

    private LinkTransfer() {}

    /**
     * Sends {@code input} with {@code contender} over a link that starts at {@code bytesPerSecond}
     * and follows {@code steps}.
     */
    public static Result run(Contender contender, LinkInput input, long bytesPerSecond, List<RateStep> steps)
            throws IOException, InterruptedException {
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "link-" + contender.name());
            t.setDaemon(true);
            return t;
        });
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) {
            socket.setTcpNoDelay(true);
            AtomicLong verified = new AtomicLong();
            Future<long[]> receiver = threads.submit(() -> receive(contender, input, accepted.getInputStream(),
                    verified));
            CountingOutputStream counted = new CountingOutputStream(socket.getOutputStream());
            RateLimitedOutputStream link = new RateLimitedOutputStream(counted, bytesPerSecond);
            long start = System.nanoTime();
            RungTimeline timeline = new RungTimeline(start);
            Future<?> schedule = threads.submit(() -> followSteps(link, verified, input.length(), steps));
            contender.send(input, steps.isEmpty() ? link : new SmallWrites(link), timeline);
            long[] received = get(receiver);
            schedule.cancel(true);
            double seconds = (received[0] - start) / 1e9;
            return new Result(seconds, counted.count, received[1] == 1, timeline.points());
        } finally {
            threads.shutdownNow();
        }
    }

    /** Reads and checks everything; returns {end nanos, 1 if every byte matched the input}. */
    private static long[] receive(Contender contender, LinkInput expected, InputStream socketIn, AtomicLong progress)
            throws IOException {
        byte[] buffer = new byte[64 << 10];
        long position = 0;
        boolean same = true;
        try (InputStream in = contender.decoder(socketIn)) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                same = same && expected.matches(position, buffer, n);
                position += n;
                progress.set(position);
            }
        }
        long end = System.nanoTime();
        return new long[] {end, same && position == expected.length() ? 1 : 0};
    }

    private static void followSteps(RateLimitedOutputStream link, AtomicLong verified, long length,
            List<RateStep> steps) {
        try {
            for (RateStep step : steps) {
                while (verified.get() < step.afterFraction() * length) {
                    TimeUnit.MILLISECONDS.sleep(1);
                }
                link.setBytesPerSecond(step.bytesPerSecond());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the transfer ended before this step
        }
    }

    private static long[] get(Future<long[]> receiver) throws IOException, InterruptedException {
        try {
            return receiver.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw new IOException("receiver failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("receiver did not finish within " + TIMEOUT_MINUTES + " minutes", e);
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
