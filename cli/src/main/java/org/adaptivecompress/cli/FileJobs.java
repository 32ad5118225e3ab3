package org.adaptivecompress.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The shared driver of {@code compress} and {@code decompress}: each input (a file or stdin)
 * goes to {@code -o}, to stdout with {@code -c}, or to the file name derived from its own.
 */
final class FileJobs {

    private final CommandSpec spec;
    private final AdaptiveCompressCli cli;
    private final Transcoder transcoder;
    private boolean removeInputs;

    FileJobs(CommandSpec spec, AdaptiveCompressCli cli, Transcoder transcoder) {
        this.spec = spec;
        this.cli = cli;
        this.transcoder = transcoder;
    }

    /** Deletes each input file once its output is complete, as {@code zstd --rm} does. */
    FileJobs removingInputs() {
        this.removeInputs = true;
        return this;
    }

    /**
     * Runs every input through the transcoder.
     *
     * @param formatOf the format of an input, by its name
     * @param derive the output file for an input file, or a usage error if none can be derived
     * @param where {@code -o}, {@code -c}, {@code -f} and {@code -v} ({@code -v} is void under {@code -q})
     */
    void run(String verb, List<String> inputs, FileOptions where, Function<String, StreamFormat> formatOf, StreamFormat to,
            Function<String, Path> derive) throws IOException {
        Path output = where.output;
        boolean toStdout = where.toStdout;
        boolean force = where.force;
        boolean verbose = where.verbose && !cli.quiet();
        List<String> files = inputs.isEmpty() ? List.of(Endpoints.STDIO) : inputs;
        if (output != null && (toStdout || files.size() > 1)) {
            throw usage("-o takes one input and excludes -c");
        }
        for (String file : files) {
            StreamFormat from = formatOf.apply(file);
            boolean stdout = toStdout || output == null && Endpoints.STDIO.equals(file);
            if (stdout && to != StreamFormat.PLAIN && !force && Terminal.stdoutIsTerminal()) {
                throw usage("stdout is a terminal: compressed bytes would garble it; redirect it, use -o FILE, or -f");
            }
            Path target = stdout ? null : output != null ? output : derive.apply(file);
            Transcoder.Result result = one(verb, file, target, force, from, to);
            if (removeInputs && !Endpoints.STDIO.equals(file)) {
                Files.delete(Path.of(file));
            }
            if (verbose || cli.progress()) {
                String written = target == null ? "stdout" : target.toString();
                summarize(spec.commandLine().getErr(), name(file), written, result, to != StreamFormat.PLAIN);
            }
        }
    }

    /**
     * Transcodes one input ({@value Endpoints#STDIO} for stdin) into {@code target}, or stdout
     * if {@code null}; deletes the target if that fails.
     */
    Transcoder.Result one(String verb, String file, Path target, boolean force, StreamFormat from, StreamFormat to)
            throws IOException {
        Transcoder.Source source = Endpoints.input(file, cli.stdin());
        Transcoder.Sink sink;
        try {
            sink = target == null ? Endpoints.stdout(cli.stdout()) : Endpoints.output(target, force, file);
        } catch (IOException | RuntimeException e) {
            source.in().close();
            throw e;
        }
        try {
            return transcoder.run(verb + " " + source.name(), source, from, sink, to);
        } catch (IOException | RuntimeException e) {
            if (target != null) {
                Endpoints.deletePartial(target, e);
            }
            throw e;
        }
    }

    /** How messages name an input. */
    static String name(String file) {
        return Endpoints.STDIO.equals(file) ? "stdin" : file;
    }

    /** {@code in.txt: 1,048,576 -> 262,144 bytes (4.00x) => in.txt.adc [blocks per rung]}. */
    static void summarize(PrintWriter err, String from, String to, Transcoder.Result r, boolean compressed) {
        long plain = r.plainBytes();
        long packed = compressed ? r.bytesOut() : r.bytesIn();
        String rungs = r.statistics() == null ? "" : "  blocks per rung " + r.statistics().blocksByRung();
        err.println(String.format(Locale.ROOT, "%s: %,d -> %,d bytes (%.2fx) => %s%s", from,
                compressed ? plain : packed, compressed ? packed : plain, r.ratio(compressed), to, rungs));
    }

    /** A usage error for this command. */
    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
