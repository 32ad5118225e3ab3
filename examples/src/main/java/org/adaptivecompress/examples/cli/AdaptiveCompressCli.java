package org.adaptivecompress.examples.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code adaptive-compress}: compress, decompress, convert, inspect and send files with the
 * adaptive frame format from a shell.
 *
 * <p>Data goes through the streams given to {@link #commandLine}; messages go through picocli's
 * out and err writers, so a test runs the whole tool in-process. Every failure ends in one line
 * {@code adaptive-compress: <message>} on err and exit code 2 (bad usage) or 1 (I/O or bad
 * input); see {@link ErrorReporter}.
 */
@Command(name = "adaptive-compress", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Compression that picks its own level from how fast the output drains.",
        subcommands = {CompressCommand.class, DecompressCommand.class, ConvertCommand.class, InspectCommand.class,
                SendCommand.class, ReceiveCommand.class, CommandLine.HelpCommand.class})
public final class AdaptiveCompressCli implements Runnable {

    @Spec
    CommandSpec spec;

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
        CommandLine commandLine = new CommandLine(cli).setCaseInsensitiveEnumValuesAllowed(true);
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

    /** Without a subcommand: the usage, as a usage error. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; try '" + NAME + " --help'");
    }

    InputStream stdin() {
        return stdin;
    }

    OutputStream stdout() {
        return stdout;
    }

    boolean progress() {
        return progress;
    }
}
