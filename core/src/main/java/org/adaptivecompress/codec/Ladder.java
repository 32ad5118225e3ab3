package org.adaptivecompress.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An ordered list of {@link Rung}s from fastest to smallest; rung 0 is always {@code raw}.
 *
 * <p>Configured everywhere by one spec string of comma-separated rung specs, e.g.
 * {@code raw,lz4,zstd:1,zstd:3,zstd:9,zstd:19,xz:6}. A controller moves up the ladder when the
 * link is the bottleneck and down when the compressor is. Immutable.
 */
public final class Ladder {

    /**
     * The default ladder, chosen by measuring every candidate rung's speed and ratio on the
     * project's corpus and dropping rungs that another beats on both (see {@code docs/LADDER.md}).
     */
    public static final String DEFAULT_SPEC = "raw,lz4,zstd:1,zstd:3,zstd:9,zstd:15,xz:6";

    private static final Ladder DEFAULT = parse(DEFAULT_SPEC);

    private final List<Rung> rungs;

    private Ladder(List<Rung> rungs) {
        this.rungs = Collections.unmodifiableList(new ArrayList<>(rungs));
    }

    /** The measured default ladder, {@value #DEFAULT_SPEC}. */
    public static Ladder defaultLadder() {
        return DEFAULT;
    }

    /**
     * Parses a ladder spec.
     *
     * @throws IllegalArgumentException if the spec is empty, does not start with {@code raw},
     *     repeats a rung, or has a bad rung; the message names the offending part
     */
    public static Ladder parse(String spec) {
        Objects.requireNonNull(spec, "spec is null");
        List<Rung> rungs = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            if (part.trim().isEmpty()) {
                throw new IllegalArgumentException("ladder spec '" + spec + "' has an empty rung");
            }
            rungs.add(Rung.parse(part));
        }
        return of(rungs);
    }

    /** A ladder of these rungs, validated as {@link #parse} does. */
    public static Ladder of(List<Rung> rungs) {
        Objects.requireNonNull(rungs, "rungs is null");
        if (rungs.isEmpty()) {
            throw new IllegalArgumentException("a ladder needs at least one rung");
        }
        if (!Rung.RAW.equals(rungs.get(0))) {
            throw new IllegalArgumentException("a ladder must start with raw, but starts with " + rungs.get(0));
        }
        Set<Rung> seen = new HashSet<>();
        for (Rung rung : rungs) {
            if (!seen.add(Objects.requireNonNull(rung, "rung is null"))) {
                throw new IllegalArgumentException("rung " + rung + " appears twice in the ladder");
            }
        }
        return new Ladder(rungs);
    }

    /** Number of rungs; the top rung is {@code size() - 1}. */
    public int size() {
        return rungs.size();
    }

    /** The index of the top (slowest, smallest) rung. */
    public int top() {
        return rungs.size() - 1;
    }

    /** Rung {@code index}, 0 being raw. */
    public Rung rung(int index) {
        return rungs.get(index);
    }

    /** The rungs, bottom first; unmodifiable. */
    public List<Rung> rungs() {
        return rungs;
    }

    /** The spec string that {@link #parse} reads back into an equal ladder. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Rung rung : rungs) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(rung);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ladder && ((Ladder) o).rungs.equals(rungs);
    }

    @Override
    public int hashCode() {
        return rungs.hashCode();
    }
}
