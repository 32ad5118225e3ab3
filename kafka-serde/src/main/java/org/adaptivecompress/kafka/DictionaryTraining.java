package org.adaptivecompress.kafka;

import com.github.luben.zstd.ZstdCompressCtx;
import java.util.ArrayList;
import java.util.List;

/**
 * Trains a dictionary on nine tenths of a topic's sampled values and measures its gain on the
 * tenth it did not see: measured on its own training values, a dictionary that merely memorised
 * them would look far better than it is.
 */
final class DictionaryTraining {

    /** Gains are measured at this zstd level, the middle of the serializer's zstd rungs. */
    static final int GAIN_LEVEL = 3;
    /** zstd's trainer wants at least this many samples, and the holdout needs some too. */
    static final int MIN_SAMPLES = 20;

    private DictionaryTraining() {}

    /** A trained dictionary and the gain measured on values it was not trained on. */
    static final class Result {
        final ZstdDictionary dictionary;
        final double gain;

        Result(ZstdDictionary dictionary, double gain) {
            this.dictionary = dictionary;
            this.gain = gain;
        }
    }

    /**
     * Trains a dictionary of at most {@code dictionarySize} bytes.
     *
     * @throws IllegalArgumentException if there are fewer than {@link #MIN_SAMPLES} samples, zstd
     *     cannot train on them, or the result is not a dictionary a reader would accept
     */
    static Result train(List<byte[]> samples, int dictionarySize, int maxBytes) {
        if (samples.size() < MIN_SAMPLES) {
            throw new IllegalArgumentException("need at least " + MIN_SAMPLES + " samples, have " + samples.size());
        }
        List<byte[]> training = new ArrayList<>(samples.size());
        List<byte[]> holdout = new ArrayList<>(samples.size() / 10 + 1);
        for (int i = 0; i < samples.size(); i++) {
            (i % 10 == 9 ? holdout : training).add(samples.get(i));
        }
        ZstdDictionary dictionary = ZstdDictionary.of(DictionaryTrainer.train(training, dictionarySize), maxBytes);
        return new Result(dictionary, gain(dictionary, holdout));
    }

    /**
     * How many times smaller zstd at {@link #GAIN_LEVEL} compresses {@code values} one by one with
     * the dictionary than without it: 1.0 means no gain.
     */
    static double gain(ZstdDictionary dictionary, List<byte[]> values) {
        long without = 0;
        long with = 0;
        try (ZstdCompressCtx plain = new ZstdCompressCtx(); ZstdCompressCtx primed = new ZstdCompressCtx()) {
            plain.setLevel(GAIN_LEVEL);
            plain.setContentSize(false);
            primed.setLevel(GAIN_LEVEL);
            primed.setContentSize(false);
            primed.setDictID(false);
            primed.loadDict(dictionary.bytes);
            for (byte[] v : values) {
                without += plain.compress(v).length;
                with += primed.compress(v).length;
            }
        }
        return with == 0 ? 1.0 : (double) without / with;
    }
}
