package org.adaptivecompress.benchmarks.scenario;

import java.nio.charset.StandardCharsets;

/**
 * Writes ASCII records straight into a byte range, dropping whatever passes its end: generating
 * 128 MiB of records through {@code String.format} and {@code getBytes} took tens of seconds, this
 * takes well under one.
 */
final class AsciiSink {

    private final byte[] out;
    private final int end;
    private int pos;

    AsciiSink(byte[] out, int off, int len) {
        this.out = out;
        this.pos = off;
        this.end = off + len;
    }

    /** Whether the range is full: generators stop here, cutting the last record. */
    boolean full() {
        return pos >= end;
    }

    AsciiSink put(byte b) {
        if (pos < end) {
            out[pos++] = b;
        }
        return this;
    }

    AsciiSink put(char c) {
        return put((byte) c);
    }

    AsciiSink put(byte[] ascii) {
        int n = Math.min(ascii.length, end - pos);
        if (n > 0) {
            System.arraycopy(ascii, 0, out, pos, n);
            pos += n;
        }
        return this;
    }

    /** A non-negative number in decimal. */
    AsciiSink number(long v) {
        if (v >= 10) {
            number(v / 10);
        }
        return put((byte) ('0' + v % 10));
    }

    /** A non-negative number in decimal, zero-padded to {@code digits}. */
    AsciiSink padded(long v, int digits) {
        for (long limit = 10, d = 1; d < digits; d++, limit *= 10) {
            if (v < limit) {
                put('0');
            }
        }
        return number(v);
    }

    /** Hundredths as a decimal: 1999 is {@code 19.99}. */
    AsciiSink cents(long hundredths) {
        return number(hundredths / 100).put('.').padded(hundredths % 100, 2);
    }

    /** 16 lower-case hex digits. */
    AsciiSink hex(long v) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            put((byte) Character.forDigit((int) (v >>> shift) & 0xF, 16));
        }
        return this;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[][] ascii(String... strings) {
        byte[][] all = new byte[strings.length][];
        for (int i = 0; i < strings.length; i++) {
            all[i] = ascii(strings[i]);
        }
        return all;
    }
}
