/*
 * Unthrottled loopback TCP, 1 GiB of JSON sent through AdaptiveOutputStream pinned to raw, read
 * back through AdaptiveInputStream in 64 KiB reads (each block copied out), in 1 MiB reads
 * (each block read straight into the caller's array) and by transferTo to a null sink; plain
 * bytes in 64 KiB reads beside them. Rounds alternate the four; each line is one transfer, from
 * the first byte written to the last byte read. Not part of the build:
 *
 *   mvn -B -q -pl benchmarks -am -DskipTests package
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/StreamReadPaths.java [rounds]
 *
 * Output of 2026-12-02: docs/data/loopback-stream-read-paths.txt.
 */
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;

public class StreamReadPaths {
  static final long TOTAL = 1L << 30;
  static final String[] WAYS = {"plain-64k", "stream-64k", "stream-1m", "stream-transferTo"};

  public static void main(String[] a) throws Exception {
    int rounds = a.length > 0 ? Integer.parseInt(a[0]) : 8;
    byte[] source = DataKind.JSON_EVENTS.generate(16 << 20);
    double[][] seconds = new double[WAYS.length][rounds];
    for (int round = -1; round < rounds; round++) { // round -1 warms up, unrecorded
      for (int w = 0; w < WAYS.length; w++) {
        double s = transfer(WAYS[w], source);
        if (round >= 0) {
          seconds[w][round] = s;
          System.out.printf("round %d %-18s %.3f s%n", round, WAYS[w], s);
        }
      }
    }
    for (int w = 0; w < WAYS.length; w++) {
      double[] sorted = seconds[w].clone();
      Arrays.sort(sorted);
      System.out.printf("%-18s median %.3f s, %.3f-%.3f%n", WAYS[w], sorted[rounds / 2], sorted[0], sorted[rounds - 1]);
    }
  }

  static double transfer(String way, byte[] source) throws Exception {
    boolean plain = way.startsWith("plain");
    ExecutorService ex = Executors.newSingleThreadExecutor();
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Future<Long> rx = ex.submit(() -> {
        try (Socket s = ss.accept();
            InputStream in = plain ? s.getInputStream() : new AdaptiveInputStream(s.getInputStream())) {
          long got = 0;
          if (way.endsWith("transferTo")) {
            got = in.transferTo(OutputStream.nullOutputStream());
          } else {
            byte[] buf = new byte[way.endsWith("1m") ? 1 << 20 : 64 << 10];
            for (int n; (n = in.read(buf)) != -1; ) {
              got += n;
            }
          }
          if (got != TOTAL) {
            throw new IllegalStateException(way + " read " + got + " bytes");
          }
          return System.nanoTime();
        }
      });
      long t0;
      try (Socket c = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort())) {
        OutputStream sink = c.getOutputStream();
        OutputStream out = plain ? sink : AdaptiveOutputStream.builder().controller("fixed:0").build(sink);
        t0 = System.nanoTime();
        for (long sent = 0; sent < TOTAL; sent += 64 << 10) {
          out.write(source, (int) (sent % source.length), 64 << 10);
        }
        out.close();
      }
      return (rx.get() - t0) / 1e9;
    } finally {
      ex.shutdown();
    }
  }
}
