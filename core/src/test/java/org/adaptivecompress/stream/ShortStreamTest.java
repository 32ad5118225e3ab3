package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.adaptivecompress.testing.DataKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A stream flushed or closed before its first block fills is sent by the writing thread and
 * starts no sender thread; the first block to fill starts one.
 */
class ShortStreamTest {

    private static final int BLOCK = 128 * 1024;

    /** Makes the stream's threads and keeps them, so a test can count and join them. */
    private static final class RecordingThreads implements ThreadFactory {
        final List<Thread> made = new CopyOnWriteArrayList<>();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "test-sender-" + made.size());
            made.add(t);
            return t;
        }
    }

    private final RecordingThreads threads = new RecordingThreads();

    private AdaptiveOutputStream.Builder stream() {
        return AdaptiveOutputStream.builder().blockSize(BLOCK).threadFactory(threads);
    }

    /**
     * A line of URLs, compressed, and random data stored raw: a ~100 KiB frame, more than the
     * ring a stream starts with, which grows for it.
     */
    @ParameterizedTest(name = "{0} bytes of {1}")
    @CsvSource({"1000, URLS", "100000, RANDOM"})
    void aStreamClosedBeforeItsFirstBlockFillsStartsNoThreadAndDecodes(int size, DataKind kind) throws IOException {
        byte[] data = kind.generate(size);

        assertThat(decode(writeAndClose(stream(), data), false)).isEqualTo(data);
        assertThat(threads.made).isEmpty();
    }

    @Test
    void aFlushedShortStreamIsInTheSinkWhenFlushReturns() throws IOException {
        byte[] data = DataKind.TEXT.generate(30_000);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = stream().build(sink)) {
            out.write(data, 0, 10_000);
            out.flush();
            InputStream flushed = AdaptiveInputStream.builder().build(new ByteArrayInputStream(sink.toByteArray()));
            assertThat(flushed.readNBytes(10_000)).as("the flushed block decodes from what the sink holds")
                    .isEqualTo(Arrays.copyOf(data, 10_000));
            out.write(data, 10_000, 20_000);
        }

        assertThat(threads.made).isEmpty();
        assertThat(decode(sink.toByteArray(), false)).isEqualTo(data);
    }

    @Test
    void shortStreamsEndedByFinishOnOnePipelineStartNoThread() throws IOException {
        byte[] record = DataKind.URLS.generate(232);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = stream().build(sink)) {
            for (int i = 0; i < 500; i++) {
                out.write(record);
                out.finish();
            }
        }

        assertThat(threads.made).isEmpty();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 500; i++) {
            expected.write(record);
        }
        assertThat(decode(sink.toByteArray(), true)).isEqualTo(expected.toByteArray());
    }

    @Test
    void aShortStreamWhoseFrameIsLargerThanTheFifoStartsTheSender() throws Exception {
        byte[] data = DataKind.RANDOM.generate(100_000);

        assertThat(decode(writeAndClose(stream().fifoCapacity(4096), data), false)).isEqualTo(data);
        assertThat(threads.made).hasSize(1);
        threads.made.get(0).join();
    }

    @Test
    void theFirstBlockToFillStartsTheSenderAndCloseStopsIt() throws Exception {
        byte[] data = DataKind.TEXT.generate(3 * BLOCK + 5);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AdaptiveOutputStream out = stream().build(sink);
        out.write(data, 0, BLOCK - 1);
        assertThat(threads.made).isEmpty();
        out.write(data, BLOCK - 1, 1);
        assertThat(threads.made).hasSize(1);
        out.write(data, BLOCK, data.length - BLOCK);
        out.close();

        assertThat(threads.made).hasSize(1);
        threads.made.get(0).join(10_000);
        assertThat(threads.made.get(0).isAlive()).isFalse();
        assertThat(decode(sink.toByteArray(), false)).isEqualTo(data);
    }

    @Test
    void aSinkThatFailsUnderAShortStreamFailsFlushLaterWritesAndClose() {
        AdaptiveOutputStream out = stream().build(new BrokenSink("disk full"));

        assertThatThrownBy(() -> {
            out.write(DataKind.URLS.generate(500));
            out.flush();
        }).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThat(threads.made).isEmpty();
    }

    @Test
    void aSinkThatFailsTheOnlyWriteOfAShortStreamFailsClose() {
        AdaptiveOutputStream out = stream().build(new BrokenSink("disk full"));

        assertThatThrownBy(() -> {
            out.write(DataKind.URLS.generate(500));
            out.close();
        }).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThat(threads.made).isEmpty();
    }

    private static byte[] writeAndClose(AdaptiveOutputStream.Builder builder, byte[] data) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = builder.build(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    private static byte[] decode(byte[] stream, boolean concatenated) throws IOException {
        try (InputStream in = AdaptiveInputStream.builder().concatenated(concatenated)
                .build(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }
}
