package org.adaptivecompress.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/** Runs the tool in-process, as a shell would, and captures what it prints. */
final class Cli {

    /** What one run did: exit code, the data it wrote to stdout, and its messages. */
    record Run(int exit, byte[] stdout, String out, String err) {
        String stdoutText() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    private Cli() {}

    static Run run(String... args) {
        return run(new byte[0], args);
    }

    static Run run(byte[] stdin, String... args) {
        return run(stdin, new StringWriter(), args);
    }

    /** Runs with {@code err} receiving the messages as they are printed. */
    static Run run(byte[] stdin, Writer err, String... args) {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        StringWriter out = new StringWriter();
        PrintWriter errWriter = new PrintWriter(err, true);
        int exit = AdaptiveCompressCli.commandLine(new ByteArrayInputStream(stdin), stdout, new PrintWriter(out, true),
                errWriter, false).execute(args);
        errWriter.flush();
        return new Run(exit, stdout.toByteArray(), out.toString(), err.toString());
    }

    /** A writer that keeps what it is given and opens a latch once a whole line containing {@code marker} has arrived. */
    static final class Watching extends Writer {
        private final StringBuffer text = new StringBuffer();
        private final String marker;
        final CountDownLatch seen = new CountDownLatch(1);

        Watching(String marker) {
            this.marker = marker;
        }

        @Override
        public void write(char[] chars, int off, int len) {
            text.append(chars, off, len);
            int at = text.indexOf(marker);
            if (at >= 0 && text.indexOf("\n", at) >= 0) {
                seen.countDown();
            }
        }

        @Override
        public void flush() {
            // nothing is buffered
        }

        @Override
        public void close() {
            // nothing to release
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
