package org.adaptivecompress.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetectorFactory;
import org.junit.jupiter.api.Test;

/** The leak check every other test relies on is installed and does fail on a leak. */
class FailingLeakDetectorTest {

    @Test
    void isTheDetectorNettyUses() {
        assertThat(ResourceLeakDetectorFactory.instance().newResourceLeakDetector(Object.class))
                .isInstanceOf(FailingLeakDetector.class);
    }

    @Test
    void failsOnABufferThatWasNeverReleased() {
        leakOne();
        assertThatThrownBy(FailingLeakDetector::assertNoLeaks).hasMessageContaining("leak");
    }

    private static void leakOne() {
        ByteBufAllocator.DEFAULT.heapBuffer(64).writeLong(42);
    }
}
