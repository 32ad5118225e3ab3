package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
