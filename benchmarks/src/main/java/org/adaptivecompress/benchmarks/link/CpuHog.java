package org.adaptivecompress.benchmarks.link;

/** A thread that spins until closed: another tenant taking one core, as on a shared machine. */
final class CpuHog implements AutoCloseable {

    private final Thread thread;
    private volatile boolean stop;
    private volatile long sink;

    private CpuHog() {
        thread = new Thread(this::spin, "cpu-hog");
        thread.setDaemon(true);
    }

    static CpuHog start() {
        CpuHog hog = new CpuHog();
        hog.thread.start();
        return hog;
    }

    private void spin() {
        long x = 1;
        while (!stop) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x; // keeps the loop from being optimised away
        }
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
