package org.adaptivecompress.benchmarks.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A family and a seed: the seed fixes a deterministic mix (kinds, piece sizes, share of random
 * bytes) and the pieces of data of any length. {@link #generate(int)} returns the same bytes for
 * the same scenario every time, in any JVM, and a shorter length is a prefix of a longer one, so
 * the sending and receiving agents make the same bytes apart and a cell's slice is the same
 * whether it was generated alone or as part of a longer input.
 *
 * @param family what the seed may draw
 * @param seed the seed
 */
public record Scenario(Family family, long seed) {

    /**
     * The most distinct bytes a scenario makes; a longer input repeats them. It must exceed the
     * largest window of any codec measured (8 MiB: zstd -19 and xz -6), so no codec sees the
     * repetition; 128 MiB is sixteen times that and generates in about a second.
     */
    public static final int MAX_UNIQUE_BYTES = 128 << 20;

    /** Salts the seed with the family, so the same seed in two families draws unrelated mixes. */
    private static final long FAMILY_SALT = 0x9E3779B97F4A7C15L;

    /** Validates. */
    public Scenario {
        if (family == null) {
            throw new IllegalArgumentException("family is null");
        }
    }

    /** The scenario named {@code family:seed}, e.g. {@code mixed:7001}. */
    public static Scenario parse(String name) {
        int colon = name.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("a scenario is named family:seed, not '" + name + "'");
        }
        try {
            return new Scenario(Family.byLabel(name.substring(0, colon)), Long.parseLong(name.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a scenario's seed is a whole number: '" + name + "'", e);
        }
    }

    /** {@code family:seed}. */
    public String name() {
        return family.label() + ":" + seed;
    }

    /** The kinds, random share and piece sizes this seed draws. */
    public Mix mix() {
        return family.draw(master().split());
    }

    /** One line for the tables: family, kinds, random share, piece sizes. */
    public String description() {
        return family.label() + ": " + mix().describe();
    }

    /** The pieces of the first {@code length} bytes, the last cut at {@code length}. */
    public List<Piece> pieces(long length) {
        List<Piece> pieces = new ArrayList<>();
        PiecePlan plan = plan();
        while (pieces.isEmpty() || pieces.get(pieces.size() - 1).offset() + pieces.get(pieces.size() - 1).length()
                < length) {
            Piece p = plan.next();
            pieces.add(new Piece(p.offset(), (int) Math.min(p.length(), length - p.offset()), p.kind(), p.seed()));
        }
        return pieces;
    }

    /** The first {@code length} bytes, at most {@link #MAX_UNIQUE_BYTES}. */
    public byte[] generate(int length) {
        if (length < 0 || length > MAX_UNIQUE_BYTES) {
            throw new IllegalArgumentException("length must be in [0, " + MAX_UNIQUE_BYTES + "], was " + length);
        }
        byte[] out = new byte[length];
        for (Piece p : pieces(length)) {
            p.kind().fill(out, (int) p.offset(), p.length(), p.seed());
        }
        return out;
    }

    private PiecePlan plan() {
        SplittableRandom master = master();
        Mix mix = family.draw(master.split());
        return new PiecePlan(mix, master.split());
    }

    private SplittableRandom master() {
        return new SplittableRandom(seed * FAMILY_SALT + family.ordinal());
    }
}
