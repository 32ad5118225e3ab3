package org.adaptivecompress.benchmarks.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A family of scenarios: what a seed may draw. The families together cover the data a
 * controller meets: one kind for long stretches, a few kinds changing every few megabytes, a lot
 * of incompressible data, and kinds changing faster than a controller can settle.
 */
public enum Family {
    /** One compressible kind (text, html, urls, protobuf, JSON, logs or CSV), pieces of 256 KiB-64 MiB. */
    HOMOGENEOUS {
        @Override
        Mix draw(SplittableRandom r) {
            PieceKind kind = PieceKind.COMPRESSIBLE.get(r.nextInt(PieceKind.COMPRESSIBLE.size()));
            int min = logUniform(r, 256 << 10, 4 << 20);
            return new Mix(List.of(kind), 0, min, widen(min, 2 + r.nextInt(3)));
        }
    },
    /**
     * Two to four kinds counting random bytes (10-30 %), pieces of 1-4 MiB: the stream of our bug
     * report, JSON events, prose and binaries with random stretches between them.
     */
    MIXED {
        @Override
        Mix draw(SplittableRandom r) {
            return new Mix(kinds(r, 1 + r.nextInt(3)), 0.10 + 0.20 * r.nextDouble(), 1 << 20, 4 << 20);
        }
    },
    /** One to three kinds with 30-60 % random bytes, pieces from 64 KiB up to 64 MiB. */
    INCOMPRESSIBLE_HEAVY {
        @Override
        Mix draw(SplittableRandom r) {
            int min = logUniform(r, 64 << 10, 8 << 20);
            return new Mix(kinds(r, 1 + r.nextInt(3)), 0.30 + 0.30 * r.nextDouble(), min, widen(min, 2 + r.nextInt(5)));
        }
    },
    /** Two or three kinds and 10-30 % random bytes in pieces of 64-512 KiB: faster than a controller settles. */
    FAST_CHANGING {
        @Override
        Mix draw(SplittableRandom r) {
            return new Mix(kinds(r, 2 + r.nextInt(2)), 0.10 + 0.20 * r.nextDouble(), 64 << 10, 512 << 10);
        }
    };

    /** The largest piece any family draws: a kind running this long is a stream of its own. */
    public static final int MAX_PIECE = 64 << 20;

    /** The lower-case name used on the command line and in the tables. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether this family mixes kinds: the families the mixed-data target is about. */
    public boolean mixesKinds() {
        return this != HOMOGENEOUS;
    }

    /** The family labelled {@code label}. */
    public static Family byLabel(String label) {
        for (Family f : values()) {
            if (f.label().equals(label)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown scenario family '" + label + "'; expected homogeneous, mixed,"
                + " incompressible-heavy or fast-changing");
    }

    /** The mix a seed of this family makes, drawn from {@code r}. */
    abstract Mix draw(SplittableRandom r);

    /** A size drawn log-uniformly from [min, max]. */
    static int logUniform(SplittableRandom r, int min, int max) {
        double log = Math.log(min) + r.nextDouble() * (Math.log(max) - Math.log(min));
        return (int) Math.max(min, Math.min(max, Math.round(Math.exp(log))));
    }

    private static int widen(int min, int doublings) {
        return (int) Math.min(MAX_PIECE, (long) min << doublings);
    }

    /** {@code n} distinct kinds besides random bytes. */
    private static List<PieceKind> kinds(SplittableRandom r, int n) {
        List<PieceKind> pool = new ArrayList<>(PieceKind.NOT_RANDOM);
        List<PieceKind> chosen = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            chosen.add(pool.remove(r.nextInt(pool.size())));
        }
        return chosen;
    }
}
