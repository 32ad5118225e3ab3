package org.adaptivecompress.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Netty's leak detector, installed for the whole test JVM by the
 * {@code io.netty.customResourceLeakDetector} system property (see the pom), that records every
 * leak report so {@link #assertNoLeaks()} can fail the test instead of a log line going unread.
 */
public final class FailingLeakDetector<T> extends ResourceLeakDetector<T> {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    /** The constructor {@code ResourceLeakDetectorFactory} calls. */
    public FailingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        LEAKS.add(resourceType + " leaked:" + records);
        super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        LEAKS.add(resourceType + " leaked (untraced)");
        super.reportUntracedLeak(resourceType);
    }

    /**
     * Collects garbage and allocates a few tracked buffers (a leak is reported when the next
     * buffer is tracked after the leaked one was collected), then fails if anything leaked.
     */
    static void assertNoLeaks() throws InterruptedException {
        if (!(ResourceLeakDetector.getLevel() == Level.PARANOID)) {
            throw new AssertionError("tests must run with -Dio.netty.leakDetection.level=PARANOID");
        }
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
            for (int j = 0; j < 10; j++) {
                ByteBufAllocator.DEFAULT.heapBuffer(1).release();
                ByteBufAllocator.DEFAULT.directBuffer(1).release();
                Unpooled.buffer(1).release();
            }
        }
        List<String> leaks = new ArrayList<>(LEAKS);
        LEAKS.clear();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " ByteBuf leak(s) reported:\n" + String.join("\n", leaks));
        }
    }
}
