package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.benchmarks.link.net.Link;

/**
 * Where a run measured: the link, whether netem exists, the kernel, the cores, the JVM and the
 * native codecs' versions, for the report's header.
 *
 * @param lines one {@code what: value} line each
 */
record Environment(List<String> lines) {

    /** What this machine and {@code link} are. */
    static Environment of(Link link) {
        List<String> lines = new ArrayList<>();
        lines.add("date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS));
        lines.add("link: " + link.describe());
        lines.add("netem (delay, loss): " + link.netem().map(n -> n ? "available, not used"
                : "not available in this kernel (\"Specified qdisc kind is unknown\"): no delay or loss added")
                .orElse("not checked (no namespace)"));
        lines.add("kernel: " + System.getProperty("os.name") + " " + System.getProperty("os.version"));
        lines.add("cores: " + Runtime.getRuntime().availableProcessors());
        lines.add("JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        lines.add("zstd: " + version("zstd", "-V"));
        lines.add("lz4: " + version("lz4", "-V"));
        return new Environment(List.copyOf(lines));
    }

    /** The first line {@code binary flag} prints, or {@code missing}. */
    static String version(String binary, String flag) {
        try {
            Process p = new ProcessBuilder(binary, flag).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out.lines().findFirst().orElse("?")
                    : "missing";
        } catch (IOException e) {
            return "missing";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "missing";
        }
    }

    /** Whether {@code binary} answers on the PATH. */
    static boolean installed(String binary) {
        return !version(binary, "-V").equals("missing");
    }
}
