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
 * {@code compress [FILE...]}: each FILE to FILE.adc (or FILE.gz ... with {@code --format}), or
 * stdin to stdout.
 *
 * <p>The default controller here is {@value #DEFAULT_CONTROLLER}, not the library's adaptive
 * default: a local disk drains faster than any codec compresses, so an adaptive controller
 * would stay near raw and a user compressing a file would see little compression. Over a pipe
 * to a slow consumer ({@code | ssh host ...}), {@code --controller model} adapts as
 * {@code send} does.
 */
@Command(name = "compress", description = "Compress files (or stdin to stdout) into the adaptive format.",
        mixinStandardHelpOptions = true)
final class CompressCommand implements Callable<Integer> {

    /** Rung 3, zstd:3 on the default ladder (clamped to the top of a shorter one). */
    static final String DEFAULT_CONTROLLER = "fixed:3";

    @ParentCommand
    AdaptiveCompressCli cli;

    @Spec
    CommandSpec spec;

    @Mixin
    CompressionMixin compression;

    @Parameters(paramLabel = "FILE", description = "Files to compress; none or '-' reads stdin and writes stdout.")
    List<String> files = new ArrayList<>();

    @Mixin
    FileOptions to;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Output format: adc, gz, xz, zst or lz4 (default: adc).")
    StreamFormat format = StreamFormat.ADC;

    @Override
    public Integer call() throws Exception {
        FileJobs jobs = new FileJobs(spec, cli,
                new Transcoder(spec.commandLine().getErr(), cli.progress(), compression, DEFAULT_CONTROLLER));
        if (format == StreamFormat.PLAIN) {
            throw jobs.usage("compress --format needs a compressed format: adc, gz, xz, zst or lz4");
        }
        run(jobs, files, to, format);
        return 0;
    }

    /** Compresses each of {@code files} into {@code format} to {@code output}, to stdout, or to its name plus the format's suffix. */
    static void run(FileJobs jobs, List<String> files, FileOptions to, StreamFormat format) throws IOException {
        jobs.run("compress", files, to, file -> StreamFormat.PLAIN, format,
                file -> Path.of(file + "." + format.extension()));
    }
}
