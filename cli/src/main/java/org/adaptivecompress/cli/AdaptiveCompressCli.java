package org.adaptivecompress.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code adaptive-compress}: compress, decompress, convert, inspect and send files with the
 * adaptive frame format from a shell.
 *
 * <p>Without a command it follows {@code zstd}'s conventions: {@code adaptive-compress FILE}
 * compresses, {@code -d} decompresses, {@code -c}, {@code -o}, {@code -f}, {@code -k}/{@code --rm},
 * {@code -q}/{@code -v}, {@code -T#}, {@code -#} and {@code --adapt} mean what they mean there,
 * and compressed bytes never go to a terminal.
 *
 * <p>Data goes through the streams given to {@link #commandLine}; messages go through picocli's
 * out and err writers, so a test runs the whole tool in-process. Every failure ends in one line
 * {@code adaptive-compress: <message>} on err and exit code 2 (bad usage) or 1 (I/O or bad
 * input); see {@link ErrorReporter}.
 */
@Command(name = "adaptive-compress", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Compression that picks its own level from how fast the output drains.",
                "Without a command, compresses each FILE (or stdin to stdout) like zstd; -d decompresses."},
        subcommands = {CompressCommand.class, DecompressCommand.class, ConvertCommand.class, InspectCommand.class,
                SendCommand.class, ReceiveCommand.class, CommandLine.HelpCommand.class})
public final class AdaptiveCompressCli implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    CompressionMixin compression;

    @Parameters(paramLabel = "FILE", description = "Files to compress (or decompress with -d); none or '-': stdin to stdout.")
    List<String> files = new ArrayList<>();

    @Mixin
    FileOptions to;

    @Option(names = {"-d", "--decompress"}, description = "Decompress instead.")
    boolean decompress;

    @Option(names = {"-k", "--keep"}, description = "Keep the input files (the default).")
    boolean keep;

    @Option(names = "--rm", description = "Delete each input file once its output is complete.")
    boolean remove;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar and no summary, for every command.")
    boolean quiet;


    /** The name every message starts with. */
    static final String NAME = "adaptive-compress";

    private final InputStream stdin;
    private final OutputStream stdout;
    private final boolean progress;

    private AdaptiveCompressCli(InputStream stdin, OutputStream stdout, boolean progress) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.progress = progress;
    }

    /**
     * The tool, reading data from {@code stdin} and writing data to {@code stdout}, messages to
     * {@code out} and {@code err}; progress bars on {@code err} only if {@code progress}.
     */
    public static CommandLine commandLine(InputStream stdin, OutputStream stdout, PrintWriter out, PrintWriter err,
            boolean progress) {
        AdaptiveCompressCli cli = new AdaptiveCompressCli(Objects.requireNonNull(stdin, "stdin is null"),
                Objects.requireNonNull(stdout, "stdout is null"), progress);
        CommandLine commandLine = new CommandLine(cli) {
            @Override
            public int execute(String... args) {
                return super.execute(ZstdLevels.expand(args));
            }
        }.setCaseInsensitiveEnumValuesAllowed(true);
        ErrorReporter reporter = new ErrorReporter();
        commandLine.setOut(Objects.requireNonNull(out, "out is null"));
        commandLine.setErr(Objects.requireNonNull(err, "err is null"));
        commandLine.setParameterExceptionHandler(reporter);
        commandLine.setExecutionExceptionHandler(reporter);
        return commandLine;
    }

    /** Runs the tool on the process's standard streams and exits with its exit code. */
    public static void main(String[] args) {
        Charset charset = Charset.defaultCharset();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, charset), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, charset), true);
        OutputStream data = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        int code;
        try {
            code = commandLine(System.in, data, out, err, Terminal.stderrIsTerminal()).execute(args);
        } catch (OutOfMemoryError e) {
            // picocli passes Errors through; a user needs the remedy, not a stack trace.
            err.println(NAME + ": out of memory (" + e.getMessage() + "): the input's blocks need more heap than"
                    + " this JVM has; run java with a larger -Xmx");
            code = ErrorReporter.FAILURE;
        }
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Without a command: zstd's conventions, compressing each file or, with {@code -d}, decompressing it. */
    @Override
    public void run() {
        if (keep && remove) {
            throw new ParameterException(spec.commandLine(), "-k keeps the input files and --rm deletes them: give one");
        }
        if ((files.isEmpty() || files.contains(Endpoints.STDIO)) && Terminal.stdinIsTerminal()) {
            throw new ParameterException(spec.commandLine(), "missing command or FILE, and stdin is a terminal; try '"
                    + NAME + " --help'");
        }
        PrintWriter err = spec.commandLine().getErr();
        FileJobs jobs = new FileJobs(spec, this, decompress ? new Transcoder(err, progress())
                : new Transcoder(err, progress(), compression, CompressCommand.DEFAULT_CONTROLLER));
        if (remove) {
            jobs.removingInputs();
        }
        try {
            if (decompress) {
                DecompressCommand.run(jobs, files, to, null);
            } else {
                CompressCommand.run(jobs, files, to, StreamFormat.ADC);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    InputStream stdin() {
        return stdin;
    }

    OutputStream stdout() {
        return stdout;
    }

    /** Whether {@code -q} was given: no progress bars and no summaries. */
    boolean quiet() {
        return quiet;
    }

    /** Whether to draw progress bars and summaries: on a terminal, and not {@code -q}. */
    boolean progress() {
        return progress && !quiet;
    }
}
