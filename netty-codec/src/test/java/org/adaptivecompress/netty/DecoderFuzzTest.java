package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.testing.fuzz.FuzzCampaign;
import org.adaptivecompress.testing.fuzz.FuzzSamples;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveCompressionDecoder} under the structure-aware fuzzer (see {@link FuzzCampaign}):
 * input arrives in reads of odd sizes, and what the decoder passes on must be the original bytes
 * unless it reported a typed error. Every buffer is released (the leak detector runs after).
 */
class DecoderFuzzTest {

    @AfterEach
    void noLeaks() throws InterruptedException {
        FailingLeakDetector.assertNoLeaks();
    }

    @Test
    void channelReads() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("netty-decoder", FuzzSamples.streams(), true,
                DecoderFuzzTest::decode, FrameFormatException.class)
                // A channel that closes before its first byte carried no stream: nothing to report.
                .accepting((sample, input, out) -> Arrays.equals(out, sample.content()) || input.length == 0 && out.length == 0);
        System.out.println(campaign.run(5, FuzzCampaign.inputs(10_000)));
    }

    /** The bytes the decoder passes on for {@code input}, fed in reads of 1 to 97 bytes; its error if it fires one. */
    private static byte[] decode(byte[] input) throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new AdaptiveCompressionDecoder());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int read = 1 + input.length % 97;
        try {
            for (int at = 0; at < input.length && channel.isOpen(); at += read) {
                channel.writeInbound(Unpooled.wrappedBuffer(input, at, Math.min(read, input.length - at)));
                drain(channel, out);
            }
            channel.finish();
            drain(channel, out);
            channel.checkException();
            return out.toByteArray();
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static void drain(EmbeddedChannel channel, ByteArrayOutputStream out) {
        for (ByteBuf b = channel.readInbound(); b != null; b = channel.readInbound()) {
            Channels.appendAndRelease(out, b);
        }
    }
}
