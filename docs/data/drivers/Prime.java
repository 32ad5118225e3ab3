/*
 * zstd with a history at levels 1 and 3 and hash logs 15-18, primed as the engine primes one (the
 * stream's last 2 MiB loaded as raw content) at 4 MiB into 16 MiB of the link benchmark's data,
 * then compressing BLOCKS blocks of 128 KiB: the first block's time with the load, all blocks'
 * time, and their ratio (best of seven). Not part of the build; from the repository root, after
 * `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/Prime.java json,text,binary,changing BLOCKS
 */
import com.github.luben.zstd.*;
import java.nio.ByteBuffer;
import org.adaptivecompress.benchmarks.link.LinkData;

/** See the comment above. */
public class Prime {
    public static void main(String[] a) throws Exception {
        int size = 16 << 20, block = 128 << 10, window = 2 << 20, after = Integer.parseInt(a[1]);
        for (String kind : a[0].split(",")) {
            byte[] data = LinkData.byName(kind).generate(size);
            byte[] out = new byte[block * 2];
            for (int level : new int[] {1, 3}) {
                for (int h : new int[] {15, 16, 17, 18}) {
                    long bestLoad = Long.MAX_VALUE, bestAll = Long.MAX_VALUE; long bytes = 0;
                    for (int rep = 0; rep < 7; rep++) {
                        int p = 4 << 20;
                        try (ZstdCompressCtx c = new ZstdCompressCtx()) {
                            c.setLevel(level); c.setChecksum(false); c.setWindowLog(21); c.setHashLog(h);
                            byte[] prime = java.util.Arrays.copyOfRange(data, p - window, p);
                            long t0 = System.nanoTime();
                            c.loadDict(prime, ZstdDictContentType.RAW_CONTENT);
                            bytes = 0;
                            ByteBuffer in = ByteBuffer.wrap(data, p, block), o = ByteBuffer.wrap(out);
                            c.compressByteBufferStream(o, in, EndDirective.FLUSH);
                            long t1 = System.nanoTime();
                            bytes += o.position();
                            for (int q = p + block; q < p + after * block; q += block) {
                                in = ByteBuffer.wrap(data, q, block); o = ByteBuffer.wrap(out);
                                c.compressByteBufferStream(o, in, EndDirective.FLUSH);
                                bytes += o.position();
                            }
                            long t2 = System.nanoTime();
                            bestLoad = Math.min(bestLoad, t1 - t0); bestAll = Math.min(bestAll, t2 - t0);
                        }
                    }
                    System.out.printf("%-8s zstd:%d h%d  first block with load %6.2f ms  %d blocks %6.2f ms  ratio %7.2f%n",
                            kind, level, h, bestLoad / 1e6, after, bestAll / 1e6, (double) after * block / bytes);
                }
            }
        }
    }
}
