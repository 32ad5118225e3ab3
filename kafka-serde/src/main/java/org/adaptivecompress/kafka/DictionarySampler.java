package org.adaptivecompress.kafka;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The recent values of one topic, kept to train a dictionary on and to measure a dictionary's
 * gain against: a ring bounded by count and by bytes, oldest out first. It keeps every
 * {@code stride}-th value offered, so a ring that only checks a live dictionary spans more of the
 * stream than one that fills for training. Thread-safe; {@link #offer} takes no lock for a value
 * it skips, so producer threads that send to one topic do not queue on it.
 */
final class DictionarySampler {

    private final int maxRecords;
    private final long maxBytes;
    private final int minLength;
    private final int maxLength;
    private final ArrayDeque<byte[]> ring = new ArrayDeque<>();
    private long bytes;
    private final AtomicLong offered = new AtomicLong();
    private volatile int stride = 1;
    private volatile boolean full;
    private volatile boolean keptAny;

    /** Keeps values of {@code minLength} to {@code maxLength} bytes. */
    DictionarySampler(int maxRecords, long maxBytes, int minLength, int maxLength) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        this.minLength = minLength;
        this.maxLength = maxLength;
    }

    /** Keeps a copy of {@code value} if it is its turn and of a useful length; true once {@link #full()}. */
    boolean offer(byte[] value) {
        if (value.length < minLength || value.length > maxLength || offered.getAndIncrement() % stride != 0) {
            return full;
        }
        byte[] copy = value.clone();
        synchronized (this) {
            ring.addLast(copy);
            bytes += copy.length;
            while (ring.size() > maxRecords || bytes > maxBytes) {
                bytes -= ring.removeFirst().length;
            }
            updateFull();
        }
        keptAny = true;
        return full;
    }

    private void updateFull() {
        full = ring.size() >= maxRecords || bytes * 10 >= maxBytes * 9;
    }

    /** Whether a value was ever kept; read without locking. */
    boolean keptAny() {
        return keptAny;
    }

    /** True once the ring holds as many values as it may, or nine tenths of its bytes. */
    boolean full() {
        return full;
    }

    /** Keeps one value in {@code n} from now on. */
    void stride(int n) {
        stride = n;
    }

    /** Empties the ring, e.g. to collect only data of a new shape. */
    synchronized void clear() {
        ring.clear();
        bytes = 0;
        updateFull();
    }

    /** The values held now, oldest first; the arrays are shared and must not be changed. */
    synchronized List<byte[]> snapshot() {
        return new ArrayList<>(ring);
    }

    /** The newest {@code n} values held (all if fewer), oldest first; shared arrays, as {@link #snapshot}. */
    synchronized List<byte[]> newest(int n) {
        List<byte[]> all = new ArrayList<>(ring);
        return all.subList(Math.max(0, all.size() - n), all.size());
    }

    /** Values held now. */
    synchronized int size() {
        return ring.size();
    }
}
