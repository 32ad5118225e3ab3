package org.adaptivecompress.internal.link;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An emulated link for tests, the demo and the CLI's {@code send --rate}: a token bucket in
 * front of a stream that lets bytes through no faster than a set rate, returning from each write
 * exactly when the bucket allows.
 * A real link, a kernel's socket buffer in front of it, takes megabytes at once and then stalls
 * the writer; claims about links are measured on the kernel's (the link benchmark), never on
 * this. The rate may change while bytes flow. Core's tests have its receiving end,
 * {@code RateLimitedInputStream}.
 *
 * <p>The bucket holds at most 10 ms of tokens (and at least 4 KiB), so bursts stay short.
 */
public final class RateLimitedOutputStream extends FilterOutputStream {

    /** A rate that never throttles. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kKmMgG]?)(bit|bps|B)?(/s)?");

    private final TokenBucket bucket;

    /** Lets bytes into {@code out} at no more than {@code bytesPerSecond}. */
    public RateLimitedOutputStream(OutputStream out, long bytesPerSecond) {
        super(out);
        this.bucket = new TokenBucket(bytesPerSecond);
    }

    /**
     * Parses a link rate such as {@code 10mbit}, {@code 1gbit}, {@code 500kbit} (bits per second,
     * decimal prefixes as networks use them) or {@code 20MB} (bytes per second) into bytes per
     * second; {@code unlimited} gives {@link #UNLIMITED}.
     */
    public static long parseRate(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("unlimited")) {
            return UNLIMITED;
        }
        Matcher m = RATE.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("cannot read link rate '" + text + "'; try 10mbit, 1gbit or 20MB");
        }
        double value = Double.parseDouble(m.group(1));
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k":
                value *= 1e3;
                break;
            case "m":
                value *= 1e6;
                break;
            case "g":
                value *= 1e9;
                break;
            default:
                break;
        }
        boolean bytes = "B".equals(m.group(3));
        long perSecond = (long) (bytes ? value : value / 8);
        if (perSecond < 1) {
            throw new IllegalArgumentException("link rate '" + text + "' is below one byte per second");
        }
        return perSecond;
    }

    /** Changes the rate from now on. */
    public void setBytesPerSecond(long bytesPerSecond) {
        bucket.setBytesPerSecond(bytesPerSecond);
    }

    /** The current rate in bytes per second. */
    public long bytesPerSecond() {
        return bucket.bytesPerSecond();
    }

    @Override
    public void write(int b) throws IOException {
        bucket.acquire(1);
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = (int) Math.min(len, bucket.burst());
            bucket.acquire(n);
            out.write(b, off, n);
            off += n;
            len -= n;
        }
    }
}
