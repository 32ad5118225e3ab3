package org.adaptivecompress.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void showsBarBytesRateTimeLeftRungAndRatio() {
        Progress.Line line = new Progress.Line("compress data", 4 << 20, () -> 1 << 20, () -> 1 << 20,
                () -> 256 << 10, () -> "zstd:3");

        String text = Progress.render(line, 2_000_000_000L);

        assertThat(text).isEqualTo("compress data [######..................]  25% 1.0 MiB  512.0 KiB/s  ETA 0:06  zstd:3  4.00x");
    }

    @Test
    void saysTheTimeLeftInMinutesOrHours() {
        assertThat(Progress.duration(0)).isEqualTo("0:00");
        assertThat(Progress.duration(75)).isEqualTo("1:15");
        assertThat(Progress.duration(3 * 3600 + 5 * 60 + 9)).isEqualTo("3:05:09");
    }

    @Test
    void leavesOutTheBarWhenTheSizeIsUnknown() {
        Progress.Line line = new Progress.Line("receive", -1, () -> 3000, () -> 9000, () -> 3000, () -> "adc");

        assertThat(Progress.render(line, 1_000_000_000L)).isEqualTo("receive 2.9 KiB  2.9 KiB/s  adc  3.00x");
    }

    @Test
    void drawsNothingWhenNotOnATerminal() {
        StringWriter err = new StringWriter();
        Progress.Line line = new Progress.Line("x", 10, () -> 5, () -> 5, () -> 1, () -> "raw");

        Progress.start(new PrintWriter(err), false, line).close();

        assertThat(err.toString()).isEmpty();
    }

    @Test
    void erasesItsLineWhenClosed() throws InterruptedException {
        StringWriter err = new StringWriter();
        Progress.Line line = new Progress.Line("x", 10, () -> 5, () -> 5, () -> 1, () -> "raw");
        Progress bar = Progress.start(new PrintWriter(err), true, line);
        while (err.toString().isEmpty()) {
            Thread.sleep(10);
        }
        bar.close();

        String drawn = err.toString();
        assertThat(drawn).startsWith("\rx [############............]  50% 5 B").endsWith("\r");
    }
}
