package org.adaptivecompress.benchmarks.scenario;

import java.io.ByteArrayOutputStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.adaptivecompress.testing.Corpus;

/**
 * Fills pieces from one kind's corpus files: slices of half to all of the files' bytes, each
 * starting at a seeded offset and passed through its own seeded byte map.
 *
 * <p>The map is a bijection that moves each byte's top three bits as a group (a permutation of the
 * eight groups) and flips a per-group mask in the low five: within a slice, every repeat and every
 * byte statistic the codecs use survives (LZ matches, Huffman and FSE tables, xz's literal contexts
 * from the top bits of the previous byte), but two slices of the same source under different maps
 * do not match each other. Without it a 4 MiB piece of a 120 KiB JPEG would be the same file again
 * and again, and every codec with a window over 120 KiB would find the copies: binaries would look
 * compressible and text far more so than it is.
 */
final class CorpusSlices {

    private static final Map<PieceKind, CorpusSlices> LOADED = new EnumMap<>(PieceKind.class);

    private final byte[] source;

    private CorpusSlices(byte[] source) {
        this.source = source;
    }

    /** The slices of {@code kind}'s files, read from the corpus once per JVM. */
    static synchronized CorpusSlices of(PieceKind kind) {
        return LOADED.computeIfAbsent(kind, k -> {
            if (k.files().isEmpty()) {
                throw new IllegalArgumentException(k + " is generated, not sliced from the corpus");
            }
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            k.files().forEach(f -> all.writeBytes(Corpus.read(f)));
            return new CorpusSlices(all.toByteArray());
        });
    }

    /** Fills {@code out[off, off + len)} with mapped slices drawn from {@code random}. */
    void fill(byte[] out, int off, int len, SplittableRandom random) {
        int half = source.length / 2;
        for (int done = 0; done < len; ) {
            // Drawn whatever is left to fill, so a shorter piece is a prefix of a longer one.
            int sliceLength = half + random.nextInt(source.length - half + 1);
            int start = random.nextInt(source.length - sliceLength + 1);
            byte[] map = byteMap(random);
            int n = Math.min(sliceLength, len - done);
            for (int i = 0; i < n; i++) {
                out[off + done + i] = map[source[start + i] & 0xFF];
            }
            done += n;
        }
    }

    /** A bijection of bytes: the 3-bit groups permuted, a 5-bit mask flipped per group. */
    static byte[] byteMap(SplittableRandom random) {
        int[] groups = {0, 1, 2, 3, 4, 5, 6, 7};
        for (int i = groups.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = groups[i];
            groups[i] = groups[j];
            groups[j] = t;
        }
        byte[] map = new byte[256];
        for (int group = 0; group < 8; group++) {
            int mask = random.nextInt(32);
            for (int low = 0; low < 32; low++) {
                map[group << 5 | low] = (byte) (groups[group] << 5 | (low ^ mask));
            }
        }
        return map;
    }
}
