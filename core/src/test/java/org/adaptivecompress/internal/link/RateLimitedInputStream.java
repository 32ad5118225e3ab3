package org.adaptivecompress.internal.link;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The receiving end of an emulated link: hands out what it reads from a stream no faster than
 * a set rate, which may change while bytes flow. The same token bucket as
 * {@link RateLimitedOutputStream}: at most 10 ms of tokens (and at least 4 KiB).
 *
 * <p>Why a link needs both ends: a sender's bucket paces what enters the socket, but a rate
 * change then misses the bytes the kernel's socket buffers already hold, up to megabytes on
 * loopback. Pacing the reader as well makes a change apply to every byte the receiver reads
 * after it, so a link that slows while the receiver reads a stretch of the data carries all of
 * that stretch at the slower rate.
 */
public final class RateLimitedInputStream extends FilterInputStream {

    private final TokenBucket bucket;

    /** Hands out what {@code in} yields at no more than {@code bytesPerSecond}. */
    public RateLimitedInputStream(InputStream in, long bytesPerSecond) {
        super(in);
        this.bucket = new TokenBucket(bytesPerSecond);
    }

    /** Changes the rate from now on; {@link RateLimitedOutputStream#UNLIMITED} lifts it. */
    public void setBytesPerSecond(long bytesPerSecond) {
        bucket.setBytesPerSecond(bytesPerSecond);
    }

    /** The current rate in bytes per second. */
    public long bytesPerSecond() {
        return bucket.bytesPerSecond();
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            bucket.acquire(1);
        }
        return b;
    }

    /** Reads at most a bucket's worth, then holds it until the link would have delivered it. */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, (int) Math.min(len, bucket.burst()));
        if (n > 0) {
            bucket.acquire(n);
        }
        return n;
    }

    /** Skips by reading, so skipped bytes take the link's time too. */
    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        byte[] scratch = new byte[(int) Math.min(n, 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    /** No marks: bytes read again would cross the link twice. */
    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public void mark(int readLimit) {
        // No marks; see markSupported.
    }

    @Override
    public void reset() throws IOException {
        throw new IOException("mark/reset not supported by an emulated link");
    }
}
