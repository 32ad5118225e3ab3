/*
 * The link benchmark's step scenario (24 MiB of JSON, 1000 -> 10 -> 1000 Mbit/s as the receiver
 * verifies each quarter) run N times with one contender, after two unrecorded runs: each run's
 * seconds, sorted, and their median. More runs than the benchmark's nine, for side-by-side
 * comparisons of builds. Not part of the build; from the repository root, after
 * `mvn -B -q -pl benchmarks -am -DskipTests package`:
 *
 *   java -cp benchmarks/target/benchmarks.jar docs/data/drivers/StepRuns.java 15 default
 */
import java.util.*;
import org.adaptivecompress.benchmarks.link.*;
import org.adaptivecompress.stream.RateLimitedOutputStream;

/** See the comment above. */
public class StepRuns {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        Contender c = Contender.all().stream().filter(x -> x.name().equals(a[1])).findFirst().orElseThrow();
        long gigabit = RateLimitedOutputStream.parseRate("1000mbit"), tenMegabit = RateLimitedOutputStream.parseRate("10mbit");
        LinkInput input = LinkInput.of(LinkData.JSON.generate(24 << 20));
        List<LinkTransfer.RateStep> steps = List.of(new LinkTransfer.RateStep(0.25, tenMegabit),
                new LinkTransfer.RateStep(0.5, gigabit));
        for (int i = 0; i < 2; i++) {
            LinkTransfer.run(c, input, gigabit, steps);
        }
        double[] seconds = new double[n];
        for (int i = 0; i < n; i++) {
            seconds[i] = LinkTransfer.run(c, input, gigabit, steps).seconds();
        }
        Arrays.sort(seconds);
        StringBuilder all = new StringBuilder();
        for (double s : seconds) {
            all.append(String.format(Locale.ROOT, " %.3f", s));
        }
        System.out.printf(Locale.ROOT, "%s: median %.3f s of %d:%s%n", a[1], seconds[n / 2], n, all);
    }
}
