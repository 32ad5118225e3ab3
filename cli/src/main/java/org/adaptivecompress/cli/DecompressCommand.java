package org.adaptivecompress.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code decompress [FILE...]}: each FILE.adc to FILE (or FILE.gz ... by extension or
 * {@code --format}), or stdin to stdout. Every block's checksum is verified; bad input fails
 * with one line and exit code 1, and the partial output is deleted.
 */
@Command(name = "decompress", aliases = "d", mixinStandardHelpOptions = true,
        description = "Decompress .adc files (or .gz, .xz, .zst, .lz4), or stdin to stdout.")
final class DecompressCommand implements Callable<Integer> {

    @ParentCommand
    AdaptiveCompressCli cli;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "Files to decompress; none or '-' reads stdin and writes stdout.")
    List<String> files = new ArrayList<>();

    @Mixin
    FileOptions to;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Input format: ${COMPLETION-CANDIDATES} (default: by extension, else adc).")
    StreamFormat format;

    @Override
    public Integer call() throws Exception {
        FileJobs jobs = new FileJobs(spec, cli, new Transcoder(spec.commandLine().getErr(), cli.progress()));
        run(jobs, files, to, format);
        return 0;
    }

    /**
     * Decompresses each of {@code files} as {@code format} (by its name if {@code null}) to
     * {@code output}, to stdout, or to its name without the format's suffix.
     */
    static void run(FileJobs jobs, List<String> files, FileOptions to, StreamFormat format) throws IOException {
        jobs.run("decompress", files, to, file -> formatOf(format, file),
                StreamFormat.PLAIN, file -> {
                    String suffix = "." + formatOf(format, file).extension();
                    int stem = file.length() - suffix.length();
                    if (stem < 1 || !file.regionMatches(true, stem, suffix, 0, suffix.length())) {
                        throw jobs.usage(file + ": unknown suffix (expected " + suffix + "); use -o or -c");
                    }
                    return Path.of(file.substring(0, stem));
                });
    }

    private static StreamFormat formatOf(StreamFormat format, String file) {
        if (format != null) {
            return format;
        }
        StreamFormat byName = StreamFormat.ofFileName(file);
        return byName == StreamFormat.PLAIN ? StreamFormat.ADC : byName;
    }
}
