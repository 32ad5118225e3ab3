package org.adaptivecompress.benchmarks.scenario;

import java.util.SplittableRandom;

/**
 * Draws a scenario's pieces one after another: a log-uniform size, then random bytes whenever
 * the random share so far has fallen half a piece behind the mix's share (so any long prefix
 * holds about that share), else one of the mix's kinds, another than the last where there are
 * several. Every draw happens whatever length is wanted, so pieces never depend on it.
 */
final class PiecePlan {

    private final Mix mix;
    private final SplittableRandom random;
    private long produced;
    private long randomBytes;
    private PieceKind last;

    PiecePlan(Mix mix, SplittableRandom random) {
        this.mix = mix;
        this.random = random;
    }

    /** The next piece, whole. */
    Piece next() {
        int size = Family.logUniform(random, mix.minPiece(), mix.maxPiece());
        long seed = random.nextLong();
        int index = random.nextInt(mix.kinds().size());
        PieceKind kind;
        double behind = mix.incompressibleShare() * (produced + size) - randomBytes;
        if (mix.incompressibleShare() > 0 && behind >= size / 2.0) {
            kind = PieceKind.RANDOM;
            randomBytes += size;
        } else {
            kind = mix.kinds().get(index);
            if (kind == last && mix.kinds().size() > 1) {
                kind = mix.kinds().get((index + 1) % mix.kinds().size());
            }
        }
        Piece piece = new Piece(produced, size, kind, seed);
        produced += size;
        last = kind;
        return piece;
    }
}
