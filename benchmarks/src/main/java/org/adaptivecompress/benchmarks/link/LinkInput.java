package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * What one cell sends: a generated block of data, repeated to the cell's length. Repeating keeps
 * the heap small where two seconds of an unthrottled loopback link are gigabytes. Blocks of the
 * full benchmark are 16 MiB, twice the 8 MiB window of zstd's strongest non-ultra level, so no
 * contender finds the repetition: every codec sees data it has not seen.
 *
 * @param block the bytes that repeat
 * @param length total bytes sent, a whole number of blocks or not
 */
public record LinkInput(byte[] block, long length) {

    /** The bytes an application hands its stream in one write. */
    static final int WRITE_SIZE = 64 << 10;

    /** Validates the length against the block. */
    public LinkInput {
        if (block.length == 0 || length < 1) {
            throw new IllegalArgumentException("an input needs a non-empty block and a positive length");
        }
    }

    /** {@code bytes} once. */
    public static LinkInput of(byte[] bytes) {
        return new LinkInput(bytes, bytes.length);
    }

    /** How many times the block is sent, counting a last partial copy as a fraction. */
    public double repetitions() {
        return (double) length / block.length;
    }

    /** The first block alone, sent once: what a probe transfer measures. */
    public LinkInput firstBlock() {
        return new LinkInput(block, Math.min(length, block.length));
    }

    /** Writes every byte into {@code out} in {@value #WRITE_SIZE}-byte pieces, as an application would. */
    public void writeTo(OutputStream out) throws IOException {
        for (long sent = 0; sent < length; ) {
            int offset = (int) (sent % block.length);
            int n = (int) Math.min(Math.min(WRITE_SIZE, block.length - offset), length - sent);
            out.write(block, offset, n);
            sent += n;
        }
    }

    /** Whether {@code received[0, n)} are the input's bytes from {@code position} on. */
    public boolean matches(long position, byte[] received, int n) {
        if (position + n > length) {
            return false;
        }
        for (int done = 0; done < n; ) {
            int offset = (int) ((position + done) % block.length);
            int m = Math.min(n - done, block.length - offset);
            if (!Arrays.equals(received, done, done + m, block, offset, offset + m)) {
                return false;
            }
            done += m;
        }
        return true;
    }
}
