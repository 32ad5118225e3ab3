package org.adaptivecompress.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.zip.CRC32C;
import org.adaptivecompress.internal.format.FrameFormat;

/** Measures what a reader allocates, and builds the inputs that would make it allocate too much. */
public final class Allocations {

    /** An action that may throw anything: the failure is what the caller expects. */
    @FunctionalInterface
    public interface Action {
        void run() throws Throwable;
    }

    private Allocations() {}

    /**
     * Bytes the calling thread allocates while {@code action} runs, whether it returns or
     * throws (HotSpot's per-thread counter; the test is skipped on a JVM without one). The
     * action runs once before, unmeasured, so that loading its classes does not count.
     */
    public static long duringCall(Action action) {
        runIgnoringFailure(action);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        runIgnoringFailure(action);
        return threads.getThreadAllocatedBytes(id) - before;
    }

    private static void runIgnoringFailure(Action action) {
        try {
            action.run();
        } catch (Throwable expected) {
            // the caller checks the failure separately; here only the allocation counts
        }
    }

    /**
     * A stream header and a valid header of a {@code codecId} block declaring {@code declared}
     * bytes both uncompressed and stored, followed by {@code sent} bytes of its payload and then
     * the end of the input: what a peer that announces a large block and stalls leaves a reader.
     */
    public static byte[] headerThenStall(int codecId, int declared, int sent) {
        int salt = 0x5EED0001;
        byte[] stream = new byte[FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + sent];
        int n = FrameFormat.writeStreamHeader(stream, 0, salt);
        FrameFormat.writeBlockHeader(stream, n, salt, codecId, 1, declared, declared, 0, 0, new CRC32C());
        return stream;
    }
}
