/*
 * What a switch from LZ4 costs the next zstd:1 block inside the stream: 256 MiB of the link
 * benchmark's data through AdaptiveOutputStream on the default ladder, its controller holding
 * zstd:1 and putting one LZ4 block in every EVERY, into (a) a sink that discards everything
 * (no sender or receiver work beyond the stream's own sender thread) and (b) real loopback TCP
 * read by a receiver thread that decodes it, as the link benchmark's unthrottled cells do.
 * Prints the median codec time of zstd:1 blocks right after an LZ4 block and right after a
 * zstd:1 block, per pass (the first two passes warm up). Not part of the build:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/SwitchCost.java json 3
 */
import java.io.*;
import java.net.*;
import java.util.*;
import org.adaptivecompress.benchmarks.link.LinkData;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.*;
import org.adaptivecompress.stream.*;

public class SwitchCost {
    public static void main(String[] a) throws Exception {
        byte[] data = LinkData.byName(a[0]).generate(16 << 20);
        int every = Integer.parseInt(a[1]);
        for (int pass = 0; pass < 6; pass++) {
            for (boolean loopback : new boolean[] {false, true}) {
                List<Long> afterLz4 = new ArrayList<>(), afterZstd = new ArrayList<>();
                send(data, every, loopback, afterLz4, afterZstd);
                if (pass >= 2) {
                    System.out.printf("pass %d %-9s zstd:1 after lz4 %4d us (%d)  after zstd:1 %4d us (%d)%n", pass,
                            loopback ? "loopback" : "discard", median(afterLz4), afterLz4.size(), median(afterZstd),
                            afterZstd.size());
                }
            }
        }
    }

    static void send(byte[] data, int every, boolean loopback, List<Long> afterLz4, List<Long> afterZstd)
            throws Exception {
        OutputStream sink;
        Thread receiver = null;
        ServerSocket server = null;
        Socket client = null;
        if (loopback) {
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            Socket accepted = server.accept();
            receiver = new Thread(() -> {
                byte[] buffer = new byte[64 << 10];
                try (InputStream in = new AdaptiveInputStream(accepted.getInputStream())) {
                    while (in.read(buffer) >= 0) {
                        // decode and discard
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            receiver.start();
            sink = client.getOutputStream();
        } else {
            sink = OutputStream.nullOutputStream();
        }
        int[] block = {0};
        LevelController pattern = new LevelController() {
            int previous = -1;
            public int initialRung(int top) { return 2; }
            public int nextRung(Observation o) {
                if (o.rung() == 2 && previous >= 0) {
                    (previous == 1 ? afterLz4 : afterZstd).add(o.compressNanos());
                }
                previous = o.rung();
                return ++block[0] % every == 0 ? 1 : 2;
            }
        };
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder(Ladder.defaultLadder())
                .controller(() -> pattern).build(sink)) {
            for (int i = 0; i < 16; i++) {
                out.write(data);
            }
        }
        if (receiver != null) {
            receiver.join();
            client.close();
            server.close();
        }
    }

    static long median(List<Long> v) {
        if (v.isEmpty()) {
            return -1;
        }
        Collections.sort(v);
        return v.get(v.size() / 2) / 1000;
    }
}
