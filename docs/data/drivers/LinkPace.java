/*
 * The emulated link's pace on its own: writes of one size through core's
 * RateLimitedOutputStream into a sink that discards them, timed against the nominal rate.
 * Not part of the build; from the repository root, after
 * `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/LinkPace.java RATE WRITE BYTES
 *
 * e.g. `10mbit 65536 2500000`: 2.5 MB in writes of 64 KiB at 10 Mbit/s, three passes.
 * Used for docs/data/link-pace-tokenbucket.txt.
 */
import java.io.OutputStream;
import org.adaptivecompress.stream.RateLimitedOutputStream;

public class LinkPace {
    public static void main(String[] args) throws Exception {
        long rate = RateLimitedOutputStream.parseRate(args[0]);
        int write = Integer.parseInt(args[1]);
        long total = Long.parseLong(args[2]);
        byte[] bytes = new byte[write];
        for (int pass = 0; pass < 3; pass++) {
            RateLimitedOutputStream link = new RateLimitedOutputStream(OutputStream.nullOutputStream(), rate);
            long start = System.nanoTime();
            for (long sent = 0; sent < total; sent += write) {
                link.write(bytes, 0, (int) Math.min(write, total - sent));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double nominal = total / (double) rate;
            System.out.printf("%s, writes of %d B: %.4f s, nominal %.4f s (%+.2f %%)%n", args[0], write, seconds,
                    nominal, 100 * (seconds / nominal - 1));
        }
    }
}
