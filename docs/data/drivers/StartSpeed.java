/*
 * Plain loopback TCP, 1 GiB in 64 KiB writes and reads, six rounds: how fast does a fresh
 * connection start, against how fast it goes on? (Does the default's start-up on unthrottled
 * JSON meet a link that is itself slow at first?) Not part of the build:
 *
 *   java docs/data/drivers/StartSpeed.java
 *
 * Output of 2026-11-28 in docs/data/link-ab-guessed-dither-not-landed.txt, section 1.
 */
import java.io.*;
import java.net.*;
import java.util.concurrent.*;
public class StartSpeed {
  public static void main(String[] a) throws Exception {
    long total = 1L << 30;
    byte[] block = new byte[64 << 10];
    for (int round = 0; round < 6; round++) {
      try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        ExecutorService ex = Executors.newSingleThreadExecutor();
        Future<long[]> rx = ex.submit(() -> {
          try (Socket s = ss.accept(); InputStream in = s.getInputStream()) {
            byte[] buf = new byte[64 << 10]; long got = 0; int n; long[] marks = new long[5]; int m = 0;
            long[] at = {4L << 20, 16L << 20, 61L << 20, 256L << 20};
            while ((n = in.read(buf)) != -1) { got += n; while (m < 4 && got >= at[m]) marks[m++] = System.nanoTime(); }
            marks[4] = System.nanoTime();
            return marks;
          }
        });
        long t0;
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort())) {
          OutputStream out = c.getOutputStream();
          t0 = System.nanoTime();
          for (long sent = 0; sent < total; sent += block.length) out.write(block);
        }
        long[] m = rx.get();
        System.out.printf("round %d: 4MB %.1f ms, 16MB %.1f ms, 61MB %.1f ms, 256MB %.1f ms, 1GiB %.1f ms%n", round,
            (m[0] - t0) / 1e6, (m[1] - t0) / 1e6, (m[2] - t0) / 1e6, (m[3] - t0) / 1e6, (m[4] - t0) / 1e6);
        ex.shutdown();
      }
    }
  }
}
