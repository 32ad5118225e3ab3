package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.ChecksumMismatchException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressorStream;
import org.apache.hadoop.io.compress.DecompressorStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Compressor and Decompressor state machines, driven by hand and by Hadoop's own streams. */
class FrameCompressorTest {

    private static AdaptiveCodecSettings smallBlocks() {
        Configuration conf = new Configuration(false);
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 4096);
        return AdaptiveCodecSettings.from(conf);
    }

    /** Input and output in pieces of awkward sizes; the result is a stream core's reader decodes. */
    @ParameterizedTest(name = "{0}, input pieces {1}, output buffer {2}")
    @CsvSource({"TEXT, 1, 7", "TEXT, 1000, 20", "RANDOM, 5000, 1", "JSON_EVENTS, 100000, 65536", "MIXED, 333, 4096"})
    void compressorStateMachineProducesCoreFrames(DataKind kind, int piece, int outBuffer) throws Exception {
        byte[] data = kind.generate(50_000);
        AdaptiveFrameCompressor c = new AdaptiveFrameCompressor(smallBlocks());
        assertThat(c.needsInput()).isTrue();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[outBuffer];
        for (int off = 0; off < data.length; off += piece) {
            c.setInput(data, off, Math.min(piece, data.length - off));
            while (!c.needsInput()) {
                out.write(buffer, 0, c.compress(buffer, 0, buffer.length));
            }
        }
        assertThat(c.finished()).isFalse();
        c.finish();
        while (!c.finished()) {
            out.write(buffer, 0, c.compress(buffer, 0, buffer.length));
        }
        assertThat(c.getBytesRead()).isEqualTo(data.length);
        assertThat(c.getBytesWritten()).isEqualTo(out.size());
        assertThat(new AdaptiveInputStream(new ByteArrayInputStream(out.toByteArray())).readAllBytes())
                .isEqualTo(data);

        AdaptiveFrameDecompressor d = new AdaptiveFrameDecompressor(smallBlocks());
        assertThat(decompressInPieces(d, out.toByteArray(), piece, outBuffer)).isEqualTo(data);
        c.end();
        d.end();
    }

    private static byte[] decompressInPieces(AdaptiveFrameDecompressor d, byte[] compressed, int piece, int outBuffer)
            throws Exception {
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        byte[] buffer = new byte[outBuffer];
        for (int off = 0; off < compressed.length && !d.finished(); off += piece) {
            d.setInput(compressed, off, Math.min(piece, compressed.length - off));
            while (!d.needsInput() && !d.finished()) {
                back.write(buffer, 0, d.decompress(buffer, 0, buffer.length));
            }
        }
        assertThat(d.finished()).isTrue();
        return back.toByteArray();
    }

    @Test
    void hadoopsCompressorStreamAndDecompressorStreamRoundTripConcatenatedStreams() throws Exception {
        AdaptiveFrameCompressor c = new AdaptiveFrameCompressor(smallBlocks());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] first = DataKind.LOG_LINES.generate(30_000);
        byte[] second = DataKind.HTML.generate(20_000);
        CompressorStream s = new CompressorStream(out, c, 1024);
        s.write(first);
        s.finish();
        s.resetState(); // compressor.reset(): the next bytes start a second stream
        s.write(second);
        s.close();

        DecompressorStream in = new DecompressorStream(new ByteArrayInputStream(out.toByteArray()),
                new AdaptiveFrameDecompressor(smallBlocks()), 777);
        byte[] expected = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, expected, first.length, second.length);
        assertThat(in.readAllBytes()).isEqualTo(expected);
    }

    @Test
    void emptyStreamIsHeaderAndEndMarker() throws Exception {
        AdaptiveFrameCompressor c = new AdaptiveFrameCompressor(smallBlocks());
        c.finish();
        byte[] buffer = new byte[100];
        int n = 0;
        while (!c.finished()) {
            n += c.compress(buffer, n, buffer.length - n);
        }
        assertThat(n).isEqualTo(FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH);
        AdaptiveFrameDecompressor d = new AdaptiveFrameDecompressor(smallBlocks());
        d.setInput(buffer, 0, n);
        assertThat(d.decompress(new byte[10], 0, 10)).isZero();
        assertThat(d.finished()).isTrue();
        assertThat(d.getRemaining()).isZero();
    }

    @Test
    void resetStartsAFreshStreamAndEndForbidsFurtherUse() throws Exception {
        AdaptiveFrameCompressor c = new AdaptiveFrameCompressor(smallBlocks());
        byte[] data = DataKind.TEXT.generate(10_000);
        c.setInput(data, 0, data.length);
        c.compress(new byte[100], 0, 100);
        c.reset();
        assertThat(c.getBytesRead()).isZero();
        assertThat(c.getBytesWritten()).isZero();
        assertThat(c.needsInput()).isTrue();
        assertThat(c.finished()).isFalse();
        c.end();
        assertThatThrownBy(() -> c.setInput(data, 0, 1)).isInstanceOf(IllegalStateException.class);
        AdaptiveFrameDecompressor d = new AdaptiveFrameDecompressor(smallBlocks());
        d.end();
        assertThatThrownBy(() -> d.setInput(data, 0, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void dictionariesAreRejectedWithAClearMessage() {
        byte[] dict = new byte[10];
        assertThatThrownBy(() -> new AdaptiveFrameCompressor(smallBlocks()).setDictionary(dict, 0, 10))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("dictionar");
        AdaptiveFrameDecompressor d = new AdaptiveFrameDecompressor(smallBlocks());
        assertThat(d.needsDictionary()).isFalse();
        assertThatThrownBy(() -> d.setDictionary(dict, 0, 10))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("dictionar");
    }

    @Test
    void decompressorReportsADamagedBlockAsChecksumMismatch() throws Exception {
        // Stored raw, so that only the block's checksum can tell the damage (a codec's own
        // checks would report a damaged compressed payload as a corrupt frame).
        Configuration raw = new Configuration();
        raw.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:0");
        byte[] compressed = TestFiles.compress(TestFiles.codec(raw), DataKind.TEXT.generate(20_000));
        compressed[compressed.length - 30] ^= 0x10; // inside the last block's payload
        AdaptiveFrameDecompressor d = new AdaptiveFrameDecompressor(AdaptiveCodecSettings.defaults());
        d.setInput(compressed, 0, compressed.length);
        assertThatThrownBy(() -> d.decompress(new byte[100_000], 0, 100_000))
                .isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("offset");
    }

    @Test
    void decompressorReportsAFrameLostWholeAtTheEndMarker() throws Exception {
        Configuration raw = new Configuration();
        raw.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:0");
        raw.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 4096);
        byte[] compressed = TestFiles.compress(TestFiles.codec(raw), DataKind.TEXT.generate(20_000));
        byte[] lost = Frames.without(compressed, 1);

        DecompressorStream in = new DecompressorStream(new ByteArrayInputStream(lost),
                new AdaptiveFrameDecompressor(AdaptiveCodecSettings.defaults()), 777);
        assertThatThrownBy(in::readAllBytes).isInstanceOf(BlockSequenceException.class);
    }
}
