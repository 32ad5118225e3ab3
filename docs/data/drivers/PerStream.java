/*
 * What one short stream costs: 2000 AdaptiveOutputStreams each carrying one 232-byte record (as
 * a RECORD-compressed SequenceFile makes one per value through the Hadoop codec), the same
 * records as streams ended by finish() on one pipeline (what a caller that closes its stream can
 * do), and the parts a pipeline builds: its engine, a thread started and joined, a 1 MiB array
 * (the FIFO).
 * Five rounds, microseconds per record.
 * Not part of the build; from the repository root, after
 * `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/PerStream.java
 */
import java.io.ByteArrayOutputStream;
import org.adaptivecompress.engine.AdaptiveCompressor;
import org.adaptivecompress.engine.CompressionOptions;
import org.adaptivecompress.stream.AdaptiveOutputStream;

public class PerStream {
    public static void main(String[] args) throws Exception {
        byte[] record = "{\"id\":1,\"event\":\"click\",\"user\":7919,\"ts\":1700000000000}\n".repeat(4).getBytes();
        int n = 2000;
        for (int round = 0; round < 5; round++) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                try (AdaptiveOutputStream out = new AdaptiveOutputStream(sink)) {
                    out.write(record);
                }
            }
            long t1 = System.nanoTime();
            ByteArrayOutputStream shared = new ByteArrayOutputStream();
            try (AdaptiveOutputStream out = new AdaptiveOutputStream(shared)) {
                for (int i = 0; i < n; i++) {
                    out.write(record);
                    out.finish();
                }
            }
            long t1b = System.nanoTime();
            for (int i = 0; i < n; i++) {
                new AdaptiveCompressor(CompressionOptions.builder().build()).close();
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(() -> { });
                t.start();
                t.join();
            }
            long t3 = System.nanoTime();
            long sum = 0;
            for (int i = 0; i < n; i++) {
                sum += new byte[1 << 20].length;
            }
            long t4 = System.nanoTime();
            System.out.printf("stream %.0f us (%d bytes out), finish() on one pipeline %.0f us (%d bytes out), engine %.1f us,"
                    + " thread %.0f us, 1 MiB array %.0f us%s%n",
                    (t1 - t0) / 1e3 / n, sink.size() / n, (t1b - t1) / 1e3 / n, shared.size() / n, (t2 - t1b) / 1e3 / n,
                    (t3 - t2) / 1e3 / n,
                    (t4 - t3) / 1e3 / n, sum == 0 ? "!" : "");
        }
    }
}
