package org.adaptivecompress.benchmarks.link.net;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Link rates in bytes per second, written as on the command line ({@code 10mbit}, {@code 2.5gbit},
 * {@code unlimited}) and shown as in the tables ({@code 10 Mbit/s}, {@code unthrottled}). A rate
 * is what the link carries of TCP payload: the plain socket copy's goodput.
 */
public final class Rates {

    /** No shaping at all. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private Rates() {}

    /**
     * {@code 10mbit}, {@code 2.5gbit}, {@code 500kbit} (decimal units, bits) or {@code unlimited}.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static long parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("unlimited") || t.equals("unthrottled")) {
            return UNLIMITED;
        }
        long unit = t.endsWith("gbit") ? 1_000_000_000L : t.endsWith("mbit") ? 1_000_000L : t.endsWith("kbit") ? 1_000L : 0;
        try {
            if (unit > 0) {
                long bits = new BigDecimal(t.substring(0, t.length() - 4)).multiply(BigDecimal.valueOf(unit))
                        .longValueExact();
                if (bits >= 8) {
                    return bits / 8;
                }
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("a rate is like 10mbit, 2.5gbit or unlimited, not '" + text + "'");
    }

    /** {@code 10 Mbit/s}, {@code 2.5 Gbit/s} or {@code unthrottled}. */
    public static String label(long bytesPerSecond) {
        if (bytesPerSecond == UNLIMITED) {
            return "unthrottled";
        }
        double bits = bytesPerSecond * 8.0;
        if (bits >= 1e9) {
            return number(bits / 1e9) + " Gbit/s";
        }
        return bits >= 1e6 ? number(bits / 1e6) + " Mbit/s" : number(bits / 1e3) + " kbit/s";
    }

    /** Megabits per second, for measured rates. */
    public static double megabits(double bytesPerSecond) {
        return bytesPerSecond * 8 / 1e6;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
