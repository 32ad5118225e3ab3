package org.adaptivecompress.internal.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time of the calling thread, in nanoseconds, as the JVM measures it (on Linux, the
 * thread's CPU clock); where the JVM cannot, or the application turned thread CPU time off (a
 * JVM-wide setting a library leaves alone), wall time, which counts a preempted thread's wait as
 * work and so errs on the side of a budget.
 */
final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Decided once, so both ends of a measure read the same clock. */
    private static final boolean MEASURED = THREADS.isCurrentThreadCpuTimeSupported()
            && THREADS.isThreadCpuTimeEnabled();

    private ThreadCpu() {}

    /**
     * Now on the calling thread's CPU clock; only differences mean anything. If thread CPU time
     * is turned off after start-up, -1 at both ends: a difference of 0, which reads as not measured.
     */
    static long nanos() {
        return MEASURED ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
