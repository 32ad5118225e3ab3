package org.adaptivecompress.internal.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimitedOutputStreamTest {

    @ParameterizedTest(name = "{0} = {1} B/s")
    @CsvSource({
        "10mbit, 1250000",
        "1gbit, 125000000",
        "500kbit, 62500",
        "1.5 Mbit/s, 187500",
        "20MB, 20000000",
        "20MB/s, 20000000",
        "8000, 1000",
    })
    void parsesLinkRatesInBitsUnlessBytesAreSaid(String text, long bytesPerSecond) {
        assertThat(RateLimitedOutputStream.parseRate(text)).isEqualTo(bytesPerSecond);
    }

    @ParameterizedTest
    @CsvSource({"fast", "10 furlongs", "-3mbit", "0.001bit"})
    void rejectsUnreadableRates(String text) {
        assertThatThrownBy(() -> RateLimitedOutputStream.parseRate(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWriteUnderWayWhenTheRateDropsStillCompletes() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        RateLimitedOutputStream link = new RateLimitedOutputStream(sink, 10_000_000);
        CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
            try {
                link.write(new byte[400_000]); // pieces of 100 KB, sized for 10 MB/s
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Thread.sleep(10);
        link.setBytesPerSecond(1_000_000); // the bucket now holds 10 KB, less than a piece
        // What is left takes well under a second at 1 MB/s; a stall never ends.
        write.get(30, TimeUnit.SECONDS);
        assertThat(sink.size()).isEqualTo(400_000);
    }
}
