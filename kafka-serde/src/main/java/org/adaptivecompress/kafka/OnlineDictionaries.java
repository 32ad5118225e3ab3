package org.adaptivecompress.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dictionaries one {@link AdaptiveSerializer} trains itself, one per topic: it samples each
 * topic's values, trains off the caller's thread, publishes the dictionary to the dictionary
 * topic, and lets records use it only once the broker has acknowledged it. Every check interval
 * it measures each live dictionary's gain on recent values and retrains when the gain has decayed,
 * and it publishes its live dictionaries again if the dictionary topic has been deleted.
 *
 * <p>A topic first looks in the dictionary topic for a dictionary trained for it (by another
 * producer, or before a restart) and uses that, once it has a value a dictionary could serve. One background thread does all the work; the
 * caller's thread only copies a sample now and then and reads a volatile.
 */
final class OnlineDictionaries implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OnlineDictionaries.class);
    /** Once a topic has a dictionary, its sampler keeps one value in this many, to span more time. */
    static final int LIVE_STRIDE = 16;

    private final DictionarySettings settings;
    private final DictionaryStore store;
    private final DictionaryPublisher publisher;
    private final ScheduledThreadPoolExecutor worker;
    private final Map<String, TopicDictionary> topics = new ConcurrentHashMap<>();
    private final AtomicBoolean topicLimitLogged = new AtomicBoolean();
    private volatile boolean closed;
    private boolean publishFailureLogged;

    OnlineDictionaries(DictionarySettings settings, DictionaryStore store, DictionaryPublisher publisher, String name) {
        this.settings = settings;
        this.store = store;
        this.publisher = publisher;
        this.worker = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "adaptive-dictionaries-" + name);
            t.setDaemon(true);
            return t;
        });
        worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        long interval = settings.checkInterval.toMillis();
        worker.scheduleWithFixedDelay(this::checkAll, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * Samples {@code value} for {@code topic} and returns the dictionary its records may use now,
     * or {@code null}. Never blocks on training or on the cluster.
     */
    ZstdDictionary dictionaryFor(String topic, byte[] value) {
        TopicDictionary known = topics.get(topic);
        TopicDictionary t = known != null ? known : track(topic);
        if (t == null) {
            return null;
        }
        if (t.sampler.offer(value) && t.needsTraining()) {
            submit(() -> train(topic, t));
        }
        if (t.needsLookup()) {
            submit(() -> adoptPublished(topic, t));
        }
        return t.live;
    }

    private TopicDictionary track(String topic) {
        if (topics.size() >= settings.maxTopics) {
            if (topicLimitLogged.compareAndSet(false, true)) {
                LOG.info("topic {} and later ones get no dictionary: adaptive.dictionary.max.topics={} reached",
                        topic, settings.maxTopics);
            }
            return null;
        }
        return topics.computeIfAbsent(topic, k -> new TopicDictionary(settings));
    }

    private void submit(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** Uses a dictionary the topic already has for {@code topic}, if any. */
    private void adoptPublished(String topic, TopicDictionary t) {
        try {
            store.catchUp(System.nanoTime() + settings.timeout.toNanos());
            ZstdDictionary d = store.latestFor(topic);
            if (d != null) {
                t.adopt(d, Double.NaN);
                LOG.info("topic {}: using dictionary {} found in {}", topic, d.idString(), settings.topic);
            }
        } catch (RuntimeException e) {
            LOG.debug("topic {}: cannot read dictionary topic {}", topic, settings.topic, e);
        } finally {
            t.lookedUp = true;
        }
    }

    /** Trains on the sampled values; publishes and uses the result if it gains enough. */
    private void train(String topic, TopicDictionary t) {
        try {
            long start = System.nanoTime();
            DictionaryTraining.Result result;
            try {
                result = DictionaryTraining.train(t.sampler.snapshot(), settings.dictionarySize, settings.maxBytes);
            } catch (IllegalArgumentException e) {
                t.backOff(settings.checkInterval);
                LOG.debug("topic {}: no dictionary trained: {}", topic, e.getMessage());
                return;
            }
            if (result.gain < settings.minGain) {
                t.backOff(settings.checkInterval);
                LOG.debug("topic {}: dictionary gains only {}x on held-out values, below adaptive.dictionary.min.gain {}",
                        topic, result.gain, settings.minGain);
                return;
            }
            if (!publish(topic, result.dictionary)) {
                t.backOff(settings.checkInterval.multipliedBy(8));
                return;
            }
            ZstdDictionary previous = t.live;
            t.adopt(result.dictionary, result.gain);
            LOG.info("topic {}: dictionary {} ({} bytes, {}x smaller on held-out values, trained and stored in {} ms) "
                    + "published to {}{}", topic, result.dictionary.idString(), result.dictionary.bytes.length,
                    String.format("%.2f", result.gain), (System.nanoTime() - start) / 1_000_000, settings.topic,
                    previous == null ? "" : ", replacing " + previous.idString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            t.backOff(settings.checkInterval.multipliedBy(8));
            LOG.warn("topic {}: training a dictionary failed; records go on without a new one", topic, e);
        } finally {
            t.training = false;
        }
    }

    private boolean publish(String topic, ZstdDictionary d) throws InterruptedException {
        try {
            publisher.publish(topic, d);
            publishFailureLogged = false;
            return true;
        } catch (DictionaryPublisher.PublishException e) {
            if (!publishFailureLogged) {
                publishFailureLogged = true;
                LOG.warn("records go on without a trained dictionary: {}", e.getMessage());
            } else {
                LOG.debug("records go on without a trained dictionary: {}", e.getMessage());
            }
            return false;
        }
    }

    /** Republishes if the dictionary topic is gone; retrains dictionaries whose gain decayed. */
    private void checkAll() {
        if (closed) {
            return;
        }
        try {
            if (anyLive() && !publisher.topicExists()) {
                republish();
            }
            for (Map.Entry<String, TopicDictionary> e : topics.entrySet()) {
                checkGain(e.getKey(), e.getValue());
            }
        } catch (DictionaryPublisher.PublishException e) {
            LOG.debug("cannot check dictionary topic {}: {}", settings.topic, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("dictionary check failed", e);
        }
    }

    private boolean anyLive() {
        for (TopicDictionary t : topics.values()) {
            if (t.live != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stops using every dictionary until it is stored again: records written now must not name
     * one that a consumer starting later cannot find.
     */
    private void republish() throws InterruptedException {
        LOG.warn("dictionary topic {} is gone: publishing the live dictionaries again", settings.topic);
        for (Map.Entry<String, TopicDictionary> e : topics.entrySet()) {
            TopicDictionary t = e.getValue();
            ZstdDictionary d = t.live;
            if (d != null) {
                t.live = null;
                if (publish(e.getKey(), d)) {
                    t.live = d;
                } else {
                    t.backOff(settings.checkInterval.multipliedBy(8));
                }
            }
        }
    }

    /**
     * Measures the live dictionary on the newest sampled values; once its gain has decayed, starts
     * collecting values afresh (the dictionary stays in use meanwhile) and trains on them when the
     * sampler is full again, so the new dictionary learns only the new shape.
     */
    private void checkGain(String topic, TopicDictionary t) {
        ZstdDictionary d = t.live;
        int held = t.sampler.size();
        if (d == null || t.training || t.retrain || held < DictionaryTraining.MIN_SAMPLES) {
            return;
        }
        double gain = DictionaryTraining.gain(d, t.sampler.newest(Math.max(DictionaryTraining.MIN_SAMPLES, held / 4)));
        if (Double.isNaN(t.gainAtTraining)) {
            t.gainAtTraining = gain; // adopted: its gain on this producer's values is the baseline
        }
        double kept = (gain - 1) / (t.gainAtTraining - 1);
        if (gain < settings.minGain || kept < 1 - settings.retrainGainLoss) {
            LOG.info("topic {}: dictionary {} now gains {}x (was {}x): sampling to retrain", topic, d.idString(),
                    String.format("%.2f", gain), String.format("%.2f", t.gainAtTraining));
            t.sampler.clear();
            t.sampler.stride(1);
            t.retrain = true;
            if (gain < 1) {
                t.live = null; // it costs bytes now: better none until the next one
            }
        }
    }

    /** Topic name to the unsigned id of the dictionary its records use now. */
    Map<String, Long> liveIds() {
        Map<String, Long> ids = new TreeMap<>();
        topics.forEach((topic, t) -> {
            ZstdDictionary d = t.live;
            if (d != null) {
                ids.put(topic, Integer.toUnsignedLong(d.id));
            }
        });
        return ids;
    }

    /** Stops the background thread (a training in progress is abandoned) and closes the clients. */
    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
        store.close();
        try {
            if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("dictionary thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        publisher.close();
    }

    /** The dictionary state of one topic. */
    private static final class TopicDictionary {
        final DictionarySampler sampler;
        volatile ZstdDictionary live;
        /** Gain on held-out values when trained; NaN for one adopted until first measured. */
        volatile double gainAtTraining = Double.NaN;
        volatile boolean training;
        /** The live dictionary's gain decayed: train again once the sampler is full. */
        volatile boolean retrain;
        volatile boolean lookedUp;
        private final AtomicBoolean lookupQueued = new AtomicBoolean();
        volatile long notBeforeNanos = System.nanoTime();

        TopicDictionary(DictionarySettings settings) {
            sampler = new DictionarySampler(settings.trainingRecords, settings.trainingBytes, settings.minSampleLength,
                    settings.maxSampleLength);
        }

        /**
         * True, once, when the caller should queue a training: no dictionary or a decayed one,
         * the dictionary topic looked up, none queued, not backing off.
         */
        boolean needsTraining() {
            if ((live != null && !retrain) || training || !lookedUp || System.nanoTime() - notBeforeNanos < 0) {
                return false;
            }
            synchronized (this) {
                if (training) {
                    return false;
                }
                training = true;
                return true;
            }
        }

        /**
         * True, once, when the caller should queue the look-up of a published dictionary: when
         * the topic's first value that a dictionary could serve was sampled. A topic whose values
         * are all too short or too long (keys, large records) never reads the dictionary topic.
         */
        boolean needsLookup() {
            return !lookupQueued.get() && sampler.keptAny() && lookupQueued.compareAndSet(false, true);
        }

        void adopt(ZstdDictionary d, double gain) {
            gainAtTraining = gain;
            live = d;
            retrain = false;
            sampler.stride(LIVE_STRIDE);
        }

        void backOff(Duration wait) {
            notBeforeNanos = System.nanoTime() + wait.toNanos();
        }
    }

    /** The settings of online dictionaries, read from {@link AdaptiveSerdeConfig}. */
    static final class DictionarySettings {
        final String topic;
        final int dictionarySize;
        final int maxBytes;
        final int trainingRecords;
        final long trainingBytes;
        final int minSampleLength;
        final int maxSampleLength;
        final double minGain;
        final double retrainGainLoss;
        final Duration checkInterval;
        final Duration timeout;
        final int maxTopics;

        DictionarySettings(AdaptiveSerdeConfig c) {
            topic = c.getString(AdaptiveSerdeConfig.DICTIONARY_TOPIC);
            dictionarySize = c.getInt(AdaptiveSerdeConfig.DICTIONARY_SIZE);
            maxBytes = c.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_BYTES);
            trainingRecords = c.getInt(AdaptiveSerdeConfig.DICTIONARY_TRAINING_RECORDS);
            trainingBytes = c.getInt(AdaptiveSerdeConfig.DICTIONARY_TRAINING_BYTES);
            minSampleLength = Math.max(1, c.getInt(AdaptiveSerdeConfig.MIN_COMPRESS_BYTES));
            maxSampleLength = c.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_VALUE_BYTES);
            minGain = c.getDouble(AdaptiveSerdeConfig.DICTIONARY_MIN_GAIN);
            retrainGainLoss = c.getDouble(AdaptiveSerdeConfig.DICTIONARY_RETRAIN_GAIN_LOSS);
            checkInterval = Duration.ofMillis(c.getLong(AdaptiveSerdeConfig.DICTIONARY_CHECK_INTERVAL_MS));
            timeout = Duration.ofMillis(c.getLong(AdaptiveSerdeConfig.DICTIONARY_TIMEOUT_MS));
            maxTopics = c.getInt(AdaptiveSerdeConfig.DICTIONARY_MAX_TOPICS);
        }
    }
}
