package org.adaptivecompress.cli;

import org.adaptivecompress.testing.fuzz.FuzzCampaign;
import org.adaptivecompress.testing.fuzz.FuzzSamples;
import org.junit.jupiter.api.Test;

/**
 * The CLI's readers under the structure-aware fuzzer (see {@link FuzzCampaign}), on stdin: a
 * damaged input ends with exit code 1 and one line naming the fault, never a stack trace, an
 * internal error or other bytes on stdout.
 */
class CliFuzzTest {

    @Test
    void decompress() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("cli-decompress", FuzzSamples.streams(), true,
                input -> run(input, "decompress", "-c"), UserError.class);
        System.out.println(campaign.run(7, FuzzCampaign.inputs(3_000)));
    }

    @Test
    void inspectVerify() throws Exception {
        FuzzCampaign campaign = new FuzzCampaign("cli-inspect", FuzzSamples.streams(), true,
                input -> run(input, "inspect", "--verify", "--summary", "-"), UserError.class)
                .accepting((sample, input, output) -> true); // a report, not the content
        System.out.println(campaign.run(8, FuzzCampaign.inputs(3_000)));
    }

    /** Stdout of a successful run; a {@link UserError} for a well-reported failure; anything else is a defect. */
    private static byte[] run(byte[] stdin, String... args) {
        Cli.Run run = Cli.run(stdin, args);
        if (run.exit() == 0) {
            return run.stdout();
        }
        String err = run.err();
        boolean oneLine = err.startsWith(AdaptiveCompressCli.NAME + ": ") && err.strip().indexOf('\n') < 0;
        if (run.exit() == ErrorReporter.FAILURE && oneLine && !err.contains("internal error")) {
            throw new UserError(err);
        }
        throw new IllegalStateException("exit " + run.exit() + ", stderr: " + err);
    }

    /** The CLI refused the input as it should: exit 1 and one line saying why. */
    private static final class UserError extends RuntimeException {
        UserError(String message) {
            super(message);
        }
    }
}
