/*
 * zstd:1 and LZ4 on 16 MiB of the link benchmark's data in 128 KiB blocks, in one thread with
 * nothing else running: zstd:1 only, the two alternating, LZ4 only, and one zstd:1 block in
 * eight; microseconds a block for rounds 2-5 (0-1 warm up). Not part of the build:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/CodecSwitch.java text
 */
import com.github.luben.zstd.ZstdCompressCtx;
import net.jpountz.lz4.*;
import org.adaptivecompress.benchmarks.link.LinkData;
public class CodecSwitch {
    public static void main(String[] a) {
        byte[] data = LinkData.byName(a[0]).generate(16 << 20);
        int B = 128 * 1024, n = data.length / B;
        ZstdCompressCtx z = new ZstdCompressCtx(); z.setLevel(1); z.setChecksum(false); z.setContentSize(true);
        LZ4Compressor l = LZ4Factory.fastestInstance().fastCompressor();
        byte[] dst = new byte[B * 2];
        for (int round = 0; round < 6; round++) {
            // pattern: 0 = zstd only, 1 = alternate zstd/lz4, 2 = lz4 only, 3 = one zstd every 8 lz4
            for (int pattern = 0; pattern < 4; pattern++) {
                long zt = 0, zc = 0, lt = 0, lc = 0;
                for (int i = 0; i < n; i++) {
                    boolean useZ = pattern == 0 || (pattern == 1 && i % 2 == 0) || (pattern == 3 && i % 8 == 0);
                    long t0 = System.nanoTime();
                    if (useZ) z.compressByteArray(dst, 0, dst.length, data, i * B, B); else l.compress(data, i * B, B, dst, 0, dst.length);
                    long t = System.nanoTime() - t0;
                    if (useZ) { zt += t; zc++; } else { lt += t; lc++; }
                }
                if (round >= 2) System.out.printf("round %d pattern %d: zstd:1 %s us/block (%d), lz4 %s us/block (%d)%n", round, pattern,
                    zc == 0 ? "-" : String.format("%.0f", zt / 1e3 / zc), zc, lc == 0 ? "-" : String.format("%.0f", lt / 1e3 / lc), lc);
            }
        }
    }
}
