/*
 * Plain loopback TCP, 1 GiB in 64 KiB writes, read in pieces of 64 KiB or 256 KiB, six rounds
 * alternating: does the receiving buffer explain why the framed stream pinned to raw (which reads
 * whole blocks) ran ahead of plain raw unthrottled on the VM of runs 19-21? Not part of the build:
 *
 *   java docs/data/drivers/ReadSize.java
 *
 * Output of 2026-11-26: docs/data/loopback-read-size.txt.
 */
import java.io.*;
import java.net.*;
import java.util.concurrent.*;
public class ReadSize {
  public static void main(String[] a) throws Exception {
    long total = 1L << 30;
    int[] reads = {64 << 10, 256 << 10};
    byte[] block = new byte[64 << 10];
    for (int round = 0; round < 6; round++) {
      for (int rs : reads) {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
          ExecutorService ex = Executors.newSingleThreadExecutor();
          Future<Long> rx = ex.submit(() -> {
            try (Socket s = ss.accept(); InputStream in = s.getInputStream()) {
              byte[] buf = new byte[rs]; long got = 0; int n; long sum = 0;
              while ((n = in.read(buf)) != -1) { got += n; sum += buf[0]; }
              return System.nanoTime();
            }
          });
          long t0;
          try (Socket c = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort())) {
            c.setTcpNoDelay(true);
            OutputStream out = c.getOutputStream();
            t0 = System.nanoTime();
            for (long sent = 0; sent < total; sent += block.length) out.write(block);
          }
          long t1 = rx.get();
          ex.shutdown();
          System.out.printf("round %d reads of %d KiB: %.3f s%n", round, rs >> 10, (t1 - t0) / 1e9);
        }
      }
    }
  }
}
