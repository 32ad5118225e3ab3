package org.adaptivecompress.internal.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time of the calling thread, in nanoseconds, as the JVM measures it (on Linux, the
 * thread's CPU clock); where the JVM cannot, wall time, which counts a preempted thread's
 * wait as work and so errs on the side of a budget.
 */
final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean MEASURED = THREADS.isCurrentThreadCpuTimeSupported() && enable();

    private ThreadCpu() {}

    private static boolean enable() {
        try {
            if (!THREADS.isThreadCpuTimeEnabled()) {
                THREADS.setThreadCpuTimeEnabled(true);
            }
            return THREADS.isThreadCpuTimeEnabled();
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Now on the calling thread's CPU clock; only differences mean anything. */
    static long nanos() {
        return MEASURED ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
