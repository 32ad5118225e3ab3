package org.adaptivecompress.stream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.adaptivecompress.internal.engine.SinkMeter;

/**
 * The FIFO between the compressing writer and the sender thread: a ring of compressed bytes
 * with a fixed capacity, so a full FIFO blocks the writer and the sink's pace becomes the
 * writer's pace. Its depth in bytes is the controller's feedback.
 *
 * <p>One writer thread calls {@link #put}, {@link #awaitDrainedBeyond}, {@link #awaitFlushed} and
 * {@link #finish}; one sender thread calls {@link #drainTo} until it returns. Before that thread
 * starts, the writer may send what is queued itself ({@link #sendQueued}) and grow the ring up
 * to its capacity ({@link #growFor}); once the sender runs, nothing on either side allocates.
 */
final class ByteFifo {

    /**
     * The most bytes the sender hands the sink in one write: small enough that the drained
     * count the controller sees moves several times per block on a slow link.
     */
    static final int MAX_WRITE = 64 * 1024;

    /**
     * The ring: grown by the writer alone, up to {@link #capacity}, while no sender runs, and
     * never after (the sender, started later, sees the last one).
     */
    private byte[] ring;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    /**
     * A writer that finds the ring full waits for this fraction of it to be free (or its whole
     * frame, if smaller) before it is woken: one wake-up per several sends instead of one per
     * send, which on a fast link is the difference between the writer and sender trading
     * cores after every write and not.
     */
    private static final int ROOM_FRACTION = 4;

    /** Free bytes the waiting writer needs before it is woken; 0 when it is not waiting. */
    private long roomWanted;
    /** Bytes the sender must have written for the waiting writer, woken after every write to check; -1 when it is not waiting. */
    private long drainedWanted = -1;
    /** Bytes the writer has copied into the ring; only the writer touches it. */
    private long copiedTotal;
    /** Bytes the sender may send: {@link #copiedTotal} as of the writer's last publication. */
    private long putTotal;
    private long takeTotal;
    /**
     * Where the sender's write in progress ends: bytes before it are sent or being sent.
     * Written under the lock; volatile so the writer can read it once per block without
     * taking the lock (it only grows, so a stale value is merely cautious).
     */
    private volatile long sendingEnd;
    private long flushRequested;
    private long flushedTotal;
    private boolean finishing;
    private volatile Throwable failure;
    /** Nanoseconds the writer spent blocked here since {@link #takeWriterWaitNanos()} last read them; only the writer touches it. */
    private long writerWaitNanos;
    /** Told when bytes start and stop waiting for the sink, for the link's timing. */
    private final SinkMeter meter;
    /** Whether the meter was last told that bytes are waiting; under the lock. */
    private boolean meterToldQueued;

    /** A FIFO whose ring is its capacity from the start, telling nobody of its timing. */
    ByteFifo(int capacity) {
        this(capacity, capacity, new SinkMeter(System.nanoTime()));
    }

    /**
     * A FIFO whose ring starts at {@code initialLength} bytes and grows to {@code capacity}
     * as the writer needs it before the sender starts (see {@link #growFor}): a short stream,
     * sent by its writer, need not allocate the whole ring (a 1 MiB array took a third of
     * such a stream's time). It tells {@code meter} when bytes start and stop
     * waiting for the sink.
     */
    ByteFifo(int initialLength, int capacity, SinkMeter meter) {
        this.capacity = capacity;
        this.ring = new byte[Math.min(initialLength, capacity)];
        this.meter = meter;
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

    /**
     * Waits until the sender has written more than {@code bytes} to the sink, at once if it has,
     * or until {@code enough} answers true, which it asks after each of the sender's writes;
     * throws the sender's failure if it fails first.
     */
    void awaitDrainedBeyond(long bytes, BooleanSupplier enough) throws IOException {
        lock.lock();
        try {
            drainedWanted = bytes;
            try {
                while (takeTotal <= bytes && !enough.getAsBoolean()) {
                    checkFailure();
                    awaitChange();
                }
            } finally {
                drainedWanted = -1;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands the sender what the writer copied and waits until it has all been written to the
     * sink, so the writer may write the next bytes through ({@link #writeThrough}); throws the
     * sender's failure if it fails first.
     */
    void awaitEmpty() throws IOException {
        lock.lock();
        try {
            publishLocked();
            drainedWanted = putTotal - 1; // the sender signals after each write while this is set
            try {
                while (takeTotal < putTotal) {
                    checkFailure();
                    awaitChange();
                }
            } finally {
                drainedWanted = -1;
            }
            checkFailure();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Nanoseconds the writer has spent blocked in this FIFO (for room, the first write, a
     * flush) since the last call; what the controller must not take for the writer's own work.
     */
    long takeWriterWaitNanos() {
        long waited = writerWaitNanos;
        writerWaitNanos = 0;
        return waited;
    }

    /** Bytes are waiting for the sink from now on, if none were; under the lock. */
    private void linkBusy() {
        if (!meterToldQueued) {
            meterToldQueued = true;
            meter.queued(System.nanoTime(), true);
        }
    }

    /** Nothing waits for the sink from now on, if nothing is queued; under the lock. */
    private void linkIdleIfEmpty() {
        if (putTotal == takeTotal && meterToldQueued) {
            meterToldQueued = false;
            meter.queued(System.nanoTime(), false);
        }
    }

    /**
     * Writes a frame, {@code frame[offset, offset + length)}, to {@code sink} on the writer's
     * thread if nothing is queued and no flush is pending, so the sender has nothing to write
     * and the frame keeps its place in the stream; returns false, having done nothing,
     * otherwise. The bytes count as put and drained, and the writes' time as the writer's wait.
     * A failure of the sink fails the FIFO as the sender's would, and is thrown.
     */
    boolean writeThrough(byte[] frame, int offset, int length, OutputStream sink) throws IOException {
        lock.lock();
        try {
            checkFailure();
            if (putTotal != takeTotal || flushRequested > flushedTotal || finishing) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        // The sender touches the sink only for queued bytes or a flush the writer asked for, and
        // the writer, here, is the only one who could queue or ask: the sink is the writer's now.
        // In the sender's pieces, so a sink sees the same writes either way (an emulated link's
        // token bucket loses the time its writer oversleeps only when a write waits for a full
        // bucket).
        long began = System.nanoTime();
        try {
            for (int done = 0; done < length; done += MAX_WRITE) {
                sink.write(frame, offset + done, Math.min(MAX_WRITE, length - done));
            }
        } catch (Throwable t) {
            fail(t);
            throw senderFailed(t);
        } finally {
            writerWaitNanos += Math.max(1, System.nanoTime() - began);
        }
        lock.lock();
        try {
            copiedTotal += length;
            putTotal = copiedTotal;
            takeTotal += length;
            sendingEnd = takeTotal;
        } finally {
            lock.unlock();
        }
        return true;
    }

    /**
     * Whether {@code length} more bytes fit beside what is queued, the ring grown up to the
     * capacity if they need it. Only the writer calls it, and only before the sender starts.
     */
    boolean growFor(int length) {
        long needed = copiedTotal - takeTotal + length;
        if (needed <= ring.length) {
            return true;
        }
        if (needed > capacity) {
            return false;
        }
        int size = ring.length;
        while (size < needed) {
            size = (int) Math.min(capacity, 2L * size);
        }
        relocate(size);
        return true;
    }

    /** Grows the ring to the capacity; the writer calls it once, before it starts the sender. */
    void growToCapacity() {
        if (ring.length < capacity) {
            relocate(capacity);
        }
    }

    /** Moves the queued bytes, each to its position's index in a ring of {@code size}. */
    private void relocate(int size) {
        byte[] grown = new byte[size];
        for (long p = takeTotal; p < copiedTotal; ) {
            int from = (int) (p % ring.length);
            int to = (int) (p % size);
            int n = (int) Math.min(copiedTotal - p, Math.min(ring.length - from, size - to));
            System.arraycopy(ring, from, grown, to, n);
            p += n;
        }
        ring = grown;
    }

    /**
     * Writes everything queued to {@code sink} on the writer's thread and flushes it, for a
     * stream whose sender has not started: until then the sink is the writer's alone. Its time
     * counts as the writer's wait; a failure of the sink fails the FIFO as the sender's would,
     * and is thrown.
     */
    void sendQueued(OutputStream sink) throws IOException {
        checkFailure();
        long began = System.nanoTime();
        try {
            while (takeTotal < putTotal) {
                int index = (int) (takeTotal % ring.length);
                int length = (int) Math.min(Math.min(putTotal - takeTotal, ring.length - index), MAX_WRITE);
                sink.write(ring, index, length);
                advance(length);
            }
            sink.flush();
        } catch (Throwable t) {
            fail(t);
            throw senderFailed(t);
        } finally {
            writerWaitNanos += Math.max(1, System.nanoTime() - began);
        }
        lock.lock();
        try {
            sendingEnd = takeTotal;
            flushedTotal = Math.max(flushedTotal, takeTotal);
        } finally {
            lock.unlock();
        }
    }

    /** The stream position the writer's next put starts at; only the writer calls it. */
    long putPosition() {
        return copiedTotal;
    }

    /** The stream position before which every byte is sent or being written to the sink. */
    long sendingEnd() {
        return sendingEnd;
    }

    /**
     * Takes back the bytes put from stream position {@code from} on, if the sender has not begun
     * writing any of them: copies them to {@code dst} and returns how many, and the next put
     * goes at {@code from}, as if they had never been put; returns -1, having done nothing, if
     * the sender has begun. Only the writer calls it, between puts. The sender meanwhile writes
     * what came before {@code from}, and waits at {@code from} until the writer puts again.
     */
    int takeBack(long from, byte[] dst) throws IOException {
        int length;
        lock.lock();
        try {
            checkFailure();
            if (from < sendingEnd || from > copiedTotal) {
                return -1;
            }
            length = (int) (copiedTotal - from);
            copiedTotal = from;
            putTotal = from;
            linkIdleIfEmpty();
        } finally {
            lock.unlock();
        }
        // Outside the lock: the sender reads no further than putTotal, and only the writer, here,
        // writes past it.
        int index = (int) (from % ring.length);
        int first = Math.min(length, ring.length - index);
        System.arraycopy(ring, index, dst, 0, first);
        System.arraycopy(ring, 0, dst, first, length - first);
        return length;
    }

    /** The sender's failure, or {@code null}. */
    Throwable failure() {
        return failure;
    }

    /** Appends bytes, waiting for room as the sender drains; a frame larger than the ring goes in pieces. */
    void put(byte[] src, int offset, int length) throws IOException {
        append(src, offset, length);
        publish();
    }

    /**
     * Appends a frame whose header and payload lie in different arrays, as one put: the sender
     * sees both at once (or as much as fits when the ring is full), never the header alone.
     */
    void put(byte[] header, int headerOffset, int headerLength, byte[] payload, int payloadOffset, int payloadLength)
            throws IOException {
        append(header, headerOffset, headerLength);
        append(payload, payloadOffset, payloadLength);
        publish();
    }

    /**
     * Copies into the ring outside the lock, so the sender never waits on the writer's copy:
     * the writer alone writes past {@link #putTotal}, and the sender reads no further than it.
     */
    private void append(byte[] src, int offset, int length) throws IOException {
        while (length > 0) {
            long free = awaitRoom(length);
            int index = (int) (copiedTotal % ring.length);
            int n = (int) Math.min(Math.min(free, length), ring.length - index);
            System.arraycopy(src, offset, ring, index, n);
            copiedTotal += n;
            offset += n;
            length -= n;
        }
    }

    /**
     * Free bytes in the ring, at least one. A writer that finds it full hands the sender what it
     * copied so far and waits for the smaller of {@code wanted} and a {@link #ROOM_FRACTION}th
     * of the ring.
     */
    private long awaitRoom(int wanted) throws IOException {
        lock.lock();
        try {
            checkFailure();
            long free = ring.length - (copiedTotal - takeTotal);
            if (free > 0) {
                return free;
            }
            publishLocked();
            roomWanted = Math.min(wanted, ring.length / ROOM_FRACTION);
            try {
                while ((free = ring.length - (copiedTotal - takeTotal)) < roomWanted) {
                    awaitChange();
                    checkFailure();
                }
            } finally {
                roomWanted = 0;
            }
            return free;
        } finally {
            lock.unlock();
        }
    }

    /** Lets the sender send everything copied so far. */
    private void publish() {
        lock.lock();
        try {
            publishLocked();
        } finally {
            lock.unlock();
        }
    }

    private void publishLocked() {
        if (putTotal != copiedTotal) {
            linkBusy(); // bytes to send now, whether or not there were before
            putTotal = copiedTotal;
            changed.signalAll();
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
                        sendingEnd = takeTotal + length;
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
            linkIdleIfEmpty();
            boolean roomFound = roomWanted > 0 && ring.length - (putTotal - takeTotal) >= roomWanted;
            if (roomFound || drainedWanted >= 0) {
                changed.signalAll();
            }
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

    /** The writer's one way to block, so the time it spends blocked is counted here alone. */
    private void awaitChange() throws InterruptedIOException {
        long began = System.nanoTime();
        try {
            changed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the sender");
        } finally {
            writerWaitNanos += System.nanoTime() - began;
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
