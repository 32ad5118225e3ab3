package org.adaptivecompress.internal.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The receiving end of the emulated link. Times are asserted only as lower bounds, which a
 * slow or busy machine can only make longer: a bucket that let bytes through too fast fails
 * them anywhere.
 */
class RateLimitedInputStreamTest {

    private static byte[] randomBytes(int n) {
        byte[] data = new byte[n];
        new Random(7).nextBytes(data);
        return data;
    }

    @Test
    void handsOutEveryByteInOrderNoFasterThanTheRate() throws IOException {
        byte[] data = randomBytes(300_000);
        RateLimitedInputStream link = new RateLimitedInputStream(new ByteArrayInputStream(data), 1_000_000);
        long start = System.nanoTime();
        byte[] read = link.readAllBytes();
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(read).isEqualTo(data);
        // 300 KB at 1 MB/s, less the bucket's 10 KB that may pass at once.
        assertThat(seconds).isGreaterThanOrEqualTo(0.28);
    }

    @Test
    void aRateDropAppliesToWhatIsReadAfterIt() throws IOException {
        byte[] data = randomBytes(200_000);
        RateLimitedInputStream link = new RateLimitedInputStream(new ByteArrayInputStream(data),
                RateLimitedOutputStream.UNLIMITED);
        byte[] first = link.readNBytes(100_000);
        link.setBytesPerSecond(500_000);
        long start = System.nanoTime();
        byte[] rest = link.readAllBytes();
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(first).isEqualTo(java.util.Arrays.copyOfRange(data, 0, 100_000));
        assertThat(rest).isEqualTo(java.util.Arrays.copyOfRange(data, 100_000, 200_000));
        assertThat(link.bytesPerSecond()).isEqualTo(500_000);
        // 100 KB at 500 KB/s, less the bucket's 5 KB.
        assertThat(seconds).isGreaterThanOrEqualTo(0.18);
    }

    @Test
    void eachReadReturnsAtMostABucketOfBytes() throws IOException {
        RateLimitedInputStream link = new RateLimitedInputStream(new ByteArrayInputStream(new byte[100_000]), 1_000_000);
        // The bucket holds 10 ms at 1 MB/s: 10,000 bytes, whatever the caller asks for.
        assertThat(link.read(new byte[65_536])).isEqualTo(10_000);
    }

    @Test
    void skippedBytesAreReadThroughTheLink() throws IOException {
        byte[] data = randomBytes(50_000);
        InputStream link = new RateLimitedInputStream(new ByteArrayInputStream(data), 100_000);
        long start = System.nanoTime();
        assertThat(link.skip(30_000)).isEqualTo(30_000);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(link.read()).isEqualTo(data[30_000] & 0xff);
        assertThat(link.skip(-1)).isZero();
        assertThat(link.skip(1 << 20)).isEqualTo(50_000 - 30_001);
        // 30 KB at 100 KB/s, less the bucket's 4 KiB.
        assertThat(seconds).isGreaterThanOrEqualTo(0.25);
    }

    @Test
    void refusesMarksAndRatesBelowOneBytePerSecond() {
        RateLimitedInputStream link = new RateLimitedInputStream(new ByteArrayInputStream(new byte[10]), 1000);
        assertThat(link.markSupported()).isFalse();
        link.mark(5);
        assertThatThrownBy(link::reset).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> link.setBytesPerSecond(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateLimitedInputStream(new ByteArrayInputStream(new byte[0]), -5))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
