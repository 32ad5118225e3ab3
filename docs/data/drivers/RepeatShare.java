/*
 * Feasibility of lending histories only where the data repeats beyond a block: for each
 * 128 KiB block of the link benchmark's data, the share of its content-defined anchors (positions
 * where a hash of 4 bytes has its top 8 bits clear, about one in 256) whose 64 bytes were seen
 * in an earlier block within the stream's last 2 MiB (16 blocks), and what finding that costs.
 * Not part of the build; from the repository root, after
 * `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/RepeatShare.java KIB
 *
 * KIB: anchors are taken from the first KIB KiB of each block only (128: the whole block).
 * Prints per kind the best of five passes over 16 MiB, in microseconds per block, and the share
 * at every eighth block.
 */
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.adaptivecompress.benchmarks.link.LinkData;

/** See the comment above. */
public class RepeatShare {
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final int TABLE_LOG = 15;
    static int SAMPLE = Integer.MAX_VALUE;
    final long[] keys = new long[1 << TABLE_LOG];
    final int[] seq = new int[1 << TABLE_LOG];
    int block;

    /** Share of anchors of b[off, off+len) already seen within the last 16 blocks; then remembers them. */
    double share(byte[] b, int off, int len) {
        len = Math.min(len, SAMPLE);
        block++;
        int anchors = 0, seen = 0;
        int end = off + len - 64;
        for (int i = off; i < end; i++) {
            int h = (int) INT.get(b, i) * 0x9E3779B1;
            if ((h >>> 24) != 0) continue;
            long fp = 0;
            for (int k = 0; k < 64; k += 8) fp = (fp ^ (long) LONG.get(b, i + k)) * 0x9E3779B97F4A7C15L;
            int slot = (int) (fp * 0xC2B2AE3D27D4EB4FL >>> (64 - TABLE_LOG));
            anchors++;
            if (keys[slot] == fp && seq[slot] < block && block - seq[slot] <= 16) seen++;
            keys[slot] = fp;
            seq[slot] = block;
        }
        return anchors == 0 ? 0 : (double) seen / anchors;
    }

    public static void main(String[] a) {
        int size = 16 << 20, blk = 128 << 10;
        SAMPLE = Integer.parseInt(a[0]) << 10;
        System.out.println("anchors from the first " + a[0] + " KiB of each 128 KiB block");
        for (String kind : new String[] {"json", "text", "binary", "changing", "random"}) {
            byte[] data = LinkData.byName(kind).generate(size);
            long best = Long.MAX_VALUE;
            StringBuilder shares = null;
            for (int rep = 0; rep < 5; rep++) {
                RepeatShare r = new RepeatShare();
                StringBuilder sb = new StringBuilder();
                long t0 = System.nanoTime();
                for (int p = 0, n = 0; p < size; p += blk, n++) {
                    double s = r.share(data, p, blk);
                    if (n % 8 == 0) sb.append(String.format("%.2f ", s));
                }
                best = Math.min(best, System.nanoTime() - t0);
                shares = sb;
            }
            System.out.printf("%-8s %6.1f us/block (%5.0f MB/s)  shares every 8th block: %s%n", kind,
                    best / 1e3 / (size / blk), size / (best / 1e3), shares.substring(0, Math.min(200, shares.length())));
        }
    }
}
