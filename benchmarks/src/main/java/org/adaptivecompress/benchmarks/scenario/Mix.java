package org.adaptivecompress.benchmarks.scenario;

import java.util.List;
import java.util.Locale;

/**
 * What a scenario's data is made of: the kinds its pieces are drawn from, the share of random
 * bytes among them, and the range of piece sizes (drawn log-uniformly).
 *
 * @param kinds the kinds besides random bytes, at least one
 * @param incompressibleShare the share of the bytes that are random, in [0, 1)
 * @param minPiece the smallest piece in bytes
 * @param maxPiece the largest piece in bytes, at least {@code minPiece}
 */
public record Mix(List<PieceKind> kinds, double incompressibleShare, int minPiece, int maxPiece) {

    /** Validates and copies. */
    public Mix {
        kinds = List.copyOf(kinds);
        if (kinds.isEmpty() || kinds.contains(PieceKind.RANDOM)) {
            throw new IllegalArgumentException("a mix needs kinds besides random bytes: " + kinds);
        }
        if (!(incompressibleShare >= 0 && incompressibleShare < 1)) {
            throw new IllegalArgumentException("incompressibleShare must be in [0, 1), was " + incompressibleShare);
        }
        if (minPiece < 1 || maxPiece < minPiece) {
            throw new IllegalArgumentException("pieces must be 1 <= min <= max, were " + minPiece + ", " + maxPiece);
        }
    }

    /** E.g. {@code json, pdf, text + 18% random; pieces 1-4 MiB}. */
    public String describe() {
        StringBuilder s = new StringBuilder();
        kinds.stream().map(PieceKind::label).sorted().forEach(k -> s.append(s.length() == 0 ? "" : ", ").append(k));
        if (incompressibleShare > 0) {
            s.append(String.format(Locale.ROOT, " + %.0f%% random", 100 * incompressibleShare));
        }
        return s.append("; pieces ").append(size(minPiece)).append('-').append(size(maxPiece)).toString();
    }

    static String size(long bytes) {
        if (bytes >= 1 << 20) {
            double mib = bytes / (double) (1 << 20);
            return mib == Math.rint(mib) ? (long) mib + " MiB" : String.format(Locale.ROOT, "%.1f MiB", mib);
        }
        return (bytes >> 10) + " KiB";
    }
}
