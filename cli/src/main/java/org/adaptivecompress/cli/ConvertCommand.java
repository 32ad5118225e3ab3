package org.adaptivecompress.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code convert IN OUT}: re-encodes a stream from one format to another, each named by its
 * file's extension ({@code .adc}, {@code .gz}, {@code .xz}, {@code .zst}, {@code .lz4}, anything
 * else plain), so data moves between this project and the tools that read the standard formats.
 */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = "Convert between adc, gz, xz, zst, lz4 and plain, by file extension.")
final class ConvertCommand implements Callable<Integer> {

    @ParentCommand
    AdaptiveCompressCli cli;

    @Spec
    CommandSpec spec;

    @Mixin
    CompressionMixin compression;

    @Parameters(index = "0", paramLabel = "IN", description = "Input file, or '-' for stdin.")
    String input;

    @Parameters(index = "1", paramLabel = "OUT", description = "Output file, or '-' for stdout.")
    String output;

    @Option(names = "--from", paramLabel = "FORMAT", description = "Input format (default: by IN's extension).")
    StreamFormat from;

    @Option(names = "--to", paramLabel = "FORMAT", description = "Output format (default: by OUT's extension).")
    StreamFormat to;

    @Option(names = {"-f", "--force"}, description = "Overwrite OUT if it exists.")
    boolean force;

    @Option(names = {"-v", "--verbose"}, description = "Print a summary line even when not on a terminal.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        StreamFormat in = from != null ? from : StreamFormat.ofFileName(input);
        StreamFormat out = to != null ? to : StreamFormat.ofFileName(output);
        FileJobs jobs = new FileJobs(spec, cli, new Transcoder(spec.commandLine().getErr(), cli.progress(),
                compression, CompressCommand.DEFAULT_CONTROLLER));
        Path target = Endpoints.STDIO.equals(output) ? null : Path.of(output);
        Transcoder.Result result = jobs.one("convert", input, target, force, in, out);
        if (verbose || cli.progress()) {
            FileJobs.summarize(spec.commandLine().getErr(), FileJobs.name(input) + " (" + in + ")",
                    (target == null ? "stdout" : output) + " (" + out + ")", result, out != StreamFormat.PLAIN);
        }
        return 0;
    }
}
