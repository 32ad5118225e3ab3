/*
 * zstd with a history at levels 1 and 3, streamed over 16 MiB of the link benchmark's data in
 * 128 KiB blocks (a frame kept open and flushed per block, a 2 MiB window, as
 * ZstdHistoryCompressor does) at hash logs 14-18, against the same blocks compressed alone:
 * milliseconds for the 16 MiB (best of five), MB/s and ratio. Not part of the build; from the
 * repository root, after `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/HashLog.java json,text,binary,changing
 */
import com.github.luben.zstd.*;
import java.nio.ByteBuffer;
import org.adaptivecompress.benchmarks.link.LinkData;

/** See the comment above. */
public class HashLog {
    public static void main(String[] a) throws Exception {
        int size = 16 << 20, block = 128 << 10;
        for (String kind : a[0].split(",")) {
            byte[] data = LinkData.byName(kind).generate(size);
            byte[] out = new byte[block * 2];
            for (int level : new int[] {1, 3}) {
                for (int h : new int[] {0, 14, 15, 16, 17, 18}) {
                    long best = Long.MAX_VALUE; long bytes = 0;
                    for (int rep = 0; rep < 5; rep++) {
                        long t0 = System.nanoTime(); bytes = 0;
                        if (h == 0) {
                            try (ZstdCompressCtx c = new ZstdCompressCtx()) {
                                c.setLevel(level);
                                for (int p = 0; p < size; p += block)
                                    bytes += c.compressByteArray(out, 0, out.length, data, p, block);
                            }
                        } else {
                            try (ZstdCompressCtx c = new ZstdCompressCtx()) {
                                c.setLevel(level); c.setChecksum(false); c.setWindowLog(21); c.setHashLog(h);
                                for (int p = 0; p < size; p += block) {
                                    ByteBuffer in = ByteBuffer.wrap(data, p, block), o = ByteBuffer.wrap(out);
                                    c.compressByteBufferStream(o, in, EndDirective.FLUSH);
                                    bytes += o.position();
                                }
                            }
                        }
                        best = Math.min(best, System.nanoTime() - t0);
                    }
                    System.out.printf("%-8s zstd:%d %-8s %7.1f ms  %6.1f MB/s  ratio %6.2f%n", kind, level,
                            h == 0 ? "blocks" : "hist h" + h, best / 1e6, size / (best / 1e3), (double) size / bytes);
                }
            }
        }
    }
}
