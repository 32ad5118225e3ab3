package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The FIFO between the compressing writer and the sender thread: a ring of compressed bytes
 * with a fixed capacity, so a full FIFO blocks the writer and the sink's pace becomes the
 * writer's pace. Its depth in bytes is the controller's feedback.
 *
 * <p>One writer thread calls {@link #put}, {@link #awaitFlushed} and {@link #finish}; one sender
 * thread calls {@link #drainTo} until it returns. The ring is never reallocated: after
 * construction nothing on either side allocates.
 */
final class ByteFifo {

    /**
     * The most bytes the sender hands the sink in one write: small enough that the drained
     * count the controller sees moves several times per block on a slow link.
     */
    static final int MAX_WRITE = 64 * 1024;

    private final byte[] ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    private long putTotal;
    private long takeTotal;
    private long flushRequested;
    private long flushedTotal;
    private boolean finishing;
    private volatile Throwable failure;

    ByteFifo(int capacity) {
        this.ring = new byte[capacity];
    }

    int capacity() {
        return ring.length;
    }

    /** Bytes written by the writer and not yet by the sender. */
    long queuedBytes() {
        lock.lock();
        try {
            return putTotal - takeTotal;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes the sender has written to the sink. */
    long drainedBytes() {
        lock.lock();
        try {
            return takeTotal;
        } finally {
            lock.unlock();
        }
    }

    /** The sender's failure, or {@code null}. */
    Throwable failure() {
        return failure;
    }

    /** Appends bytes, waiting for room as the sender drains; a frame larger than the ring goes in pieces. */
    void put(byte[] src, int offset, int length) throws IOException {
        lock.lock();
        try {
            while (length > 0) {
                long free;
                while ((free = ring.length - (putTotal - takeTotal)) == 0) {
                    checkFailure();
                    awaitChange();
                }
                checkFailure();
                int index = (int) (putTotal % ring.length);
                int n = (int) Math.min(Math.min(free, length), ring.length - index);
                System.arraycopy(src, offset, ring, index, n);
                putTotal += n;
                offset += n;
                length -= n;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every byte put so far has been written to the sink and the sink flushed. */
    void awaitFlushed() throws IOException {
        lock.lock();
        try {
            long target = putTotal;
            flushRequested = Math.max(flushRequested, target);
            changed.signalAll();
            while (flushedTotal < target) {
                checkFailure();
                awaitChange();
            }
            checkFailure();
        } finally {
            lock.unlock();
        }
    }

    /** No more puts: the sender drains what is left, flushes the sink and returns. */
    void finish() {
        lock.lock();
        try {
            finishing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The sender's loop: writes queued bytes to {@code sink} in order, flushes it when asked,
     * and returns after {@link #finish} once everything is written and flushed. A failure of
     * the sink is recorded, wakes the writer (whose next call throws it) and ends the loop.
     */
    void drainTo(OutputStream sink) {
        try {
            while (true) {
                int index;
                int length;
                long flushTarget = -1;
                lock.lock();
                try {
                    while (putTotal == takeTotal && flushRequested <= flushedTotal && !finishing) {
                        changed.await();
                    }
                    long queued = putTotal - takeTotal;
                    if (queued == 0) {
                        if (flushRequested <= flushedTotal) {
                            flushTarget = putTotal; // finishing: a last flush, then stop
                        } else {
                            flushTarget = flushRequested;
                        }
                        index = 0;
                        length = 0;
                    } else {
                        index = (int) (takeTotal % ring.length);
                        length = (int) Math.min(Math.min(queued, ring.length - index), MAX_WRITE);
                    }
                } finally {
                    lock.unlock();
                }
                if (length > 0) {
                    sink.write(ring, index, length);
                    advance(length);
                } else {
                    sink.flush();
                    if (markFlushed(flushTarget)) {
                        return;
                    }
                }
            }
        } catch (Throwable t) {
            fail(t);
        }
    }

    private void advance(int length) {
        lock.lock();
        try {
            takeTotal += length;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Records a completed flush; true when the FIFO is finished and empty, so the sender stops. */
    private boolean markFlushed(long target) {
        lock.lock();
        try {
            flushedTotal = Math.max(flushedTotal, target);
            changed.signalAll();
            return finishing && putTotal == takeTotal && flushRequested <= flushedTotal;
        } finally {
            lock.unlock();
        }
    }

    private void fail(Throwable t) {
        lock.lock();
        try {
            failure = t;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void awaitChange() throws InterruptedIOException {
        try {
            changed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the sender");
        }
    }

    private void checkFailure() throws IOException {
        Throwable t = failure;
        if (t != null) {
            throw senderFailed(t);
        }
    }

    static IOException senderFailed(Throwable t) {
        return new IOException("the sink failed while sending compressed frames: " + t, t);
    }
}
