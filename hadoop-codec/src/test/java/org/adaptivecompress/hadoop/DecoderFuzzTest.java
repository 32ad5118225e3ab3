package org.adaptivecompress.hadoop;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.testing.fuzz.FuzzCampaign;
import org.adaptivecompress.testing.fuzz.FuzzSamples;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.DecompressorStream;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec.READ_MODE;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The codec's readers under the structure-aware fuzzer (see {@link FuzzCampaign}): the
 * {@code Decompressor} behind Hadoop's own {@code DecompressorStream}, the codec's input stream,
 * and split reads, which must agree with a whole read wherever that succeeds.
 */
class DecoderFuzzTest {

    private final AdaptiveCodec codec = TestFiles.codec(new Configuration(false));
    private final AdaptiveFrameDecompressor decompressor = new AdaptiveFrameDecompressor(AdaptiveCodecSettings.defaults());

    @AfterEach
    void end() {
        decompressor.end();
    }

    @Test
    void decompressorInHadoopsStream() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("hadoop-decompressor", FuzzSamples.streams(), true, input -> {
            decompressor.reset();
            // An odd buffer, so headers and payloads arrive split across setInput calls.
            try (InputStream in = new DecompressorStream(new ByteArrayInputStream(input), decompressor, 97)) {
                return in.readAllBytes();
            }
        }, FrameFormatException.class, EOFException.class);
        System.out.println(campaign.run(2, FuzzCampaign.inputs(15_000)));
    }

    @Test
    void codecInputStream() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("hadoop-stream", FuzzSamples.streams(), true, input -> {
            try (InputStream in = codec.createInputStream(new ByteArrayInputStream(input), decompressor)) {
                return in.readAllBytes();
            }
        }, FrameFormatException.class);
        System.out.println(campaign.run(3, FuzzCampaign.inputs(15_000)));
    }

    /**
     * Splits of a size taken from the input's length: where the whole read succeeds, the splits
     * together return exactly its bytes; where it fails, they fail typed or, since a split that
     * starts inside a stream cannot check its digest, return what they find.
     */
    @Test
    void splitReads() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("hadoop-splits", FuzzSamples.streams(), true, input -> {
            byte[] whole;
            try (InputStream in = codec.createInputStream(new ByteArrayInputStream(input), decompressor)) {
                whole = in.readAllBytes();
            } catch (FrameFormatException damaged) {
                readSplits(input, 1 + input.length % 1500);
                throw damaged;
            }
            byte[] split = readSplits(input, 1 + input.length % 1500);
            if (!Arrays.equals(split, whole)) {
                throw new AssertionError("splits returned " + split.length + " bytes, the whole read " + whole.length);
            }
            return whole;
        }, FrameFormatException.class);
        System.out.println(campaign.run(4, FuzzCampaign.inputs(5_000)));
    }

    /** Every split's units, in order, read as {@code CompressedSplitLineReader} bounds them. */
    private byte[] readSplits(byte[] file, long splitSize) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        for (long start = 0; start < file.length; start += splitSize) {
            long end = Math.min(file.length, start + splitSize);
            try (SplitCompressionInputStream in = codec.createInputStream(new SeekableBytes(file), decompressor,
                    start, end, READ_MODE.BYBLOCK)) {
                for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                    if (in.getPos() - 1 >= end) {
                        break; // a unit of the next split
                    }
                    all.write(buffer, 0, n);
                }
            }
        }
        return all.toByteArray();
    }

    /** A byte array that Hadoop's split readers can seek in. */
    private static final class SeekableBytes extends ByteArrayInputStream implements Seekable, PositionedReadable {
        SeekableBytes(byte[] bytes) {
            super(bytes);
        }

        @Override
        public void seek(long position) throws IOException {
            if (position < 0 || position > count) {
                throw new EOFException("seek to " + position + " of " + count);
            }
            pos = (int) position;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public boolean seekToNewSource(long targetPos) {
            return false;
        }

        @Override
        public int read(long position, byte[] b, int off, int len) {
            if (position >= count) {
                return -1;
            }
            int n = (int) Math.min(len, count - position);
            System.arraycopy(buf, (int) position, b, off, n);
            return n;
        }

        @Override
        public void readFully(long position, byte[] b, int off, int len) throws IOException {
            if (read(position, b, off, len) < len) {
                throw new EOFException();
            }
        }

        @Override
        public void readFully(long position, byte[] b) throws IOException {
            readFully(position, b, 0, b.length);
        }
    }
}
