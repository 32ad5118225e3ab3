package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.junit.jupiter.api.Test;

/** A failing underlying stream: close reports the failure that lost the data first. */
class FailingSinkTest {

    @Test
    void closeThrowsTheWriteFailureWithTheCloseFailureSuppressedAndReturnsTheCompressor() throws Exception {
        AdaptiveCodec codec = TestFiles.codec(new Configuration(false));
        int leased = CodecPool.getLeasedCompressorsCount(codec);
        FailingSink sink = new FailingSink();
        // Nothing written: the stream header alone makes the sender fail, and an earlier write
        // could already see that failure; close() must report it all the same.
        CompressionOutputStream out = codec.createOutputStream(sink);

        Throwable thrown = catchThrowable(out::close);

        assertThat(thrown).isInstanceOf(IOException.class).hasRootCauseMessage("disk full");
        assertThat(thrown.getSuppressed()).extracting(Throwable::getMessage).containsExactly("close failed");
        assertThat(sink.closeCalls).isEqualTo(1);
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isEqualTo(leased);
    }

    @Test
    void aCloseFailureAfterAFinishedStreamIsThrownAsItIs() throws Exception {
        AdaptiveCodec codec = TestFiles.codec(new Configuration(false));
        FailingSink sink = new FailingSink();
        sink.failWrites = false;
        CompressionOutputStream out = codec.createOutputStream(sink, null);
        out.write(AdaptiveCodecTest.text(10_000));

        Throwable thrown = catchThrowable(out::close);

        assertThat(thrown).isInstanceOf(IOException.class).hasMessage("close failed").hasNoSuppressedExceptions();
    }

    /** Fails every close, and every write while {@link #failWrites} is set. */
    private static final class FailingSink extends OutputStream {
        boolean failWrites = true;
        int closeCalls;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (failWrites) {
                throw new IOException("disk full");
            }
        }

        @Override
        public void close() throws IOException {
            closeCalls++;
            throw new IOException("close failed");
        }
    }
}
