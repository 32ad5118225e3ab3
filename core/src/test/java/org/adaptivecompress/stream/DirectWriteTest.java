package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Raw blocks that find the FIFO empty go to the sink from the writing thread, for controllers
 * that learn from that, and the stream stays the same stream.
 */
@Timeout(60)
class DirectWriteTest {

    private static final int BLOCK = 128 * 1024;

    /** Keeps what it is given and which thread gave each write. */
    private static final class ThreadRecordingSink extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<String> writers = new ArrayList<>();
        final List<Integer> lengths = new ArrayList<>();

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
            writers.add(Thread.currentThread().getName());
            lengths.add(len);
        }

        synchronized long writesBy(String thread, int length) {
            long n = 0;
            for (int i = 0; i < writers.size(); i++) {
                if (writers.get(i).equals(thread) && lengths.get(i) == length) {
                    n++;
                }
            }
            return n;
        }
    }

    /**
     * With parallel compression and one worker tuned, the writer compresses each block itself,
     * as a stream without workers does: it writes raw blocks to the sink and starts no worker.
     */
    @Test
    void withOneWorkerTunedTheWriterWritesRawBlocksItselfAndStartsNoWorker() throws IOException {
        int rawBlock = BLOCK - FrameFormat.BLOCK_HEADER_LENGTH;
        byte[] data = DataKind.TEXT.generate(32 * rawBlock);
        ThreadRecordingSink sink = new ThreadRecordingSink();
        long workersBefore = workerThreads();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:0").maxWorkers(2)
                .heldWorkers(1).build(sink)) {
            out.flush();
            for (int i = 0; i < data.length; i += rawBlock) {
                out.write(data, i, rawBlock);
                out.flush();
                assertThat(workerThreads()).as("worker threads").isEqualTo(workersBefore);
            }
        }

        // The sender, started with the stream, wrote its header and end marker.
        assertThat(sink.writesBy(Thread.currentThread().getName(), ByteFifo.MAX_WRITE)).isEqualTo(64);
        assertThat(decode(sink.bytes.toByteArray())).isEqualTo(data);
    }

    private static long workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("adaptive-compress-worker-")).count();
    }

    @Test
    void aStreamPinnedToRawWritesItsBlocksItselfInWholePiecesAndDecodesIntact() throws IOException {
        // A raw block holds a header's length less than the block size, so its frame is the
        // block size exactly.
        int rawBlock = BLOCK - FrameFormat.BLOCK_HEADER_LENGTH;
        byte[] data = DataKind.TEXT.generate(32 * rawBlock);
        ThreadRecordingSink sink = new ThreadRecordingSink();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:0").build(sink)) {
            out.flush(); // the stream header, queued at construction, has left
            for (int i = 0; i < data.length; i += rawBlock) {
                out.write(data, i, rawBlock);
                out.flush(); // the FIFO is empty when the next block is ready, however the threads ran
            }
        }

        // Header and payload together, in the sender's 64 KiB pieces, on this thread; the one
        // other write there is the stream header, flushed before any block filled and so
        // before the sender started; the sender wrote the end marker.
        String writer = Thread.currentThread().getName();
        assertThat(sink.writesBy(writer, ByteFifo.MAX_WRITE)).isEqualTo(64);
        assertThat(sink.writesBy(writer, FrameFormat.STREAM_HEADER_LENGTH)).isEqualTo(1);
        assertThat(sink.writers.stream().filter(writer::equals).count()).isEqualTo(65);
        assertThat(sink.writers.get(sink.writers.size() - 1)).isNotEqualTo(writer);
        assertThat(decode(sink.bytes.toByteArray())).isEqualTo(data);
    }

    @Test
    void blocksStoredRawAreAHeaderShorterSoTheirFramesAreTheBlockSize() throws IOException {
        byte[] data = DataKind.RANDOM.generate(10 * BLOCK);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:0").build(sink);
        try (out) {
            for (int i = 0; i < data.length; i += 1000) {
                out.write(data, i, Math.min(1000, data.length - i));
            }
        }

        int rawBlock = BLOCK - FrameFormat.BLOCK_HEADER_LENGTH;
        long blocks = (data.length + rawBlock - 1) / rawBlock;
        assertThat(out.statistics().blocks(0)).isEqualTo(blocks);
        assertThat(out.statistics().bytesOut(0)).isEqualTo(blocks * FrameFormat.BLOCK_HEADER_LENGTH + data.length);
        assertThat(decode(sink.toByteArray())).isEqualTo(data);
    }

    @Test
    void adocsRawBlocksAllGoThroughTheSenderWhoseFifoItReads() throws IOException {
        byte[] data = DataKind.RANDOM.generate(4 << 20);
        ThreadRecordingSink sink = new ThreadRecordingSink();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("adoc").build(sink)) {
            out.write(data);
        }

        assertThat(sink.writers).doesNotContain(Thread.currentThread().getName());
        assertThat(decode(sink.bytes.toByteArray())).isEqualTo(data);
    }

    @Test
    void rawAndCompressedBlocksKeepTheirOrderWhenDataChangesKind() throws IOException {
        // Random stretches go out raw, written directly whenever the FIFO has emptied; the
        // compressed frames between them are queued. Any reordering breaks the decode.
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ThreadRecordingSink sink = new ThreadRecordingSink();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().build(sink)) {
            for (int round = 0; round < 6; round++) {
                byte[] piece = (round % 2 == 0 ? DataKind.RANDOM : DataKind.JSON_EVENTS).generate(BLOCK * 5 + 777);
                out.write(piece);
                expected.write(piece);
                if (round == 3) {
                    out.flush();
                }
            }
        }

        // The first random block after the flush finds the FIFO empty and goes out raw.
        assertThat(sink.writesBy(Thread.currentThread().getName(), ByteFifo.MAX_WRITE)).isPositive();
        assertThat(decode(sink.bytes.toByteArray())).isEqualTo(expected.toByteArray());
    }

    private static byte[] decode(byte[] stream) throws IOException {
        try (AdaptiveInputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    /**
     * Blocks larger than the FIFO, and flushes between a few bytes and megabytes, alternate direct
     * writes with queued frames: the stream keeps every byte and throws nothing.
     */
    @Test
    void smallAndLargeFlushedWritesWithBlocksLargerThanTheFifoRoundTrip() throws IOException {
        byte[] large = DataKind.RANDOM.generate(3 << 20);
        byte[] small = DataKind.TEXT.generate(10);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().blockSize(4 << 20).build(sink)) {
            for (int i = 0; i < 6; i++) {
                out.write(small);
                out.flush();
                out.write(large);
                out.flush();
                expected.write(small);
                expected.write(large);
            }
        }
        byte[] back = AdaptiveInputStream.builder().build(new ByteArrayInputStream(sink.toByteArray())).readAllBytes();
        assertThat(back).isEqualTo(expected.toByteArray());
    }
}
