package org.adaptivecompress.benchmarks.link.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short system command ({@code ip}, {@code tc}) and captures what it says. */
final class Command {

    /** Longer than any {@code ip} or {@code tc} call takes; a hung one fails instead of hanging the run. */
    private static final long TIMEOUT_SECONDS = 30;

    /**
     * What a command said.
     *
     * @param exit its exit status
     * @param output standard output and error, merged
     */
    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private Command() {}

    /** Runs {@code argv}; a missing binary is exit status 127, as a shell would say. */
    static Result run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, "timed out after " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            return new Result(127, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(130, "interrupted");
        }
    }

    /**
     * Runs {@code argv} and returns its output.
     *
     * @throws LinkSetupException naming the command, its status and what it said, if it failed
     */
    static String check(List<String> argv) throws LinkSetupException {
        Result r = run(argv);
        if (!r.ok()) {
            throw new LinkSetupException("'" + String.join(" ", argv) + "' failed (exit " + r.exit() + "): "
                    + r.output());
        }
        return r.output();
    }
}
