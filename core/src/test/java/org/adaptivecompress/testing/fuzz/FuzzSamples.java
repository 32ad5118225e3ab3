package org.adaptivecompress.testing.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.internal.engine.AdaptiveCompressor;
import org.adaptivecompress.internal.engine.PipelineSample;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.adaptivecompress.testing.fuzz.FuzzCampaign.Sample;

/**
 * The valid streams a campaign mutates: every codec alone, every codec in one stream, with and
 * without histories (and with reset points), the edge cases (no blocks, a one-byte block) and streams whose content
 * holds other streams. Blocks are small, so a
 * short input holds many frames and decodes in microseconds. Rungs are scripted and each sample
 * has a salt of its own, fixed: sample {@code k} is the same bytes in every run, so an input
 * reproduces from its campaign index.
 */
public final class FuzzSamples {

    private static final String LADDER = "raw,lz4,zstd:3,xz:1,deflate:6";

    private FuzzSamples() {}

    /** Every sample stream with its content. */
    public static List<Sample> streams() {
        List<Sample> samples = new ArrayList<>();
        byte[] text = DataKind.TEXT.generate(6000);
        byte[] mixed = DataKind.MIXED.generate(9000);
        for (int rung = 0; rung < 5; rung++) {
            samples.add(encode(samples.size(), text, 1024, false, rung));
        }
        samples.add(encode(samples.size(), mixed, 700, false, 0, 1, 2, 3, 4));
        samples.add(encode(samples.size(), mixed, 700, true, 2, 3, 2, 1, 3, 0));
        samples.add(encode(samples.size(), DataKind.JSON_EVENTS.generate(5000), 2048, true, 2, 2, 2));
        samples.add(encode(samples.size(), new byte[0], 1024, false, 2));
        samples.add(encode(samples.size(), new byte[] {42}, 1024, false, 3));
        // Streams inside the content, stored verbatim (an .adc in a tar): content, not frames.
        ByteArrayOutputStream nested = new ByteArrayOutputStream();
        nested.write(text, 0, 1500);
        for (int i = 0; i < 4; i++) {
            nested.writeBytes(samples.get(i).stream());
        }
        samples.add(encode(samples.size(), nested.toByteArray(), 1024, false, 0));
        samples.add(encode(samples.size(), nested.toByteArray(), 1024, false, 1));
        // Histories with a reset point every three blocks, where a split reader starts.
        samples.add(encode(samples.size(), mixed, 700, 2100, 2, 3, 2, 0, 3, 2));
        return samples;
    }

    /** {@code content} in blocks of {@code blockSize}, block {@code i} at rung {@code rungs[i % rungs.length]}. */
    private static Sample encode(int index, byte[] content, int blockSize, boolean history, int... rungs) {
        return encode(index, AdaptiveCompressionOptions.builder().history(history), content, blockSize, rungs);
    }

    /** Like the above, with histories and a reset point every {@code resetInterval} bytes. */
    private static Sample encode(int index, byte[] content, int blockSize, long resetInterval, int... rungs) {
        return encode(index, AdaptiveCompressionOptions.builder().history(true).resetInterval(resetInterval), content,
                blockSize, rungs);
    }

    private static Sample encode(int index, AdaptiveCompressionOptions.Builder base, byte[] content, int blockSize,
            int... rungs) {
        AdaptiveCompressionOptions options = base.ladder(LADDER).controller(() -> new ScriptedController(rungs))
                .blockSize(blockSize).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(blockSize) + 64];
        try (AdaptiveCompressor c = new AdaptiveCompressor(options, 0x5EED0000 + index)) {
            out.write(frame, 0, c.writeStreamHeader(frame, 0));
            for (int at = 0; at < content.length; at += blockSize) {
                int length = Math.min(blockSize, content.length - at);
                out.write(frame, 0, c.compressBlock(content, at, length, frame, 0));
                c.update(PipelineSample.ofFifo(0, 0, 0));
            }
            out.write(frame, 0, c.writeEndOfStream(frame, 0));
        }
        return new Sample(out.toByteArray(), content);
    }
}
