package org.adaptivecompress.stream;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.testing.InMemoryChannel;
import org.adaptivecompress.testing.fuzz.FuzzCampaign;
import org.adaptivecompress.testing.fuzz.FuzzSamples;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveSeekableChannel} under the structure-aware fuzzer: a whole read gives typed
 * errors or the original bytes, and a read from the middle (through the reset point before it)
 * gives the same bytes as the whole read there.
 */
class SeekableChannelFuzzTest {

    @Test
    void wholeAndSeekingReads() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("core-seekable", FuzzSamples.streams(), true, input -> {
            byte[] whole = readFrom(input, 0);
            if (whole.length > 1) {
                int middle = whole.length / 2;
                byte[] half = readFrom(input, middle);
                if (!Arrays.equals(half, Arrays.copyOfRange(whole, middle, whole.length))) {
                    throw new AssertionError("a read from content offset " + middle + " differs from the whole read");
                }
            }
            return whole;
        }, FrameFormatException.class);
        System.out.println(campaign.run(1, FuzzCampaign.inputs(10_000)));
    }

    private static byte[] readFrom(byte[] file, long at) throws Exception {
        try (AdaptiveSeekableChannel in = AdaptiveSeekableChannel.open(new InMemoryChannel(file))) {
            in.position(at);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (in.read(buffer) >= 0) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            return out.toByteArray();
        }
    }
}
