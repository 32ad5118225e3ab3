package org.adaptivecompress.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where {@code compress} and {@code decompress} write, as {@code zstd} takes it: {@code -o}, {@code -c}, {@code -f}, {@code -v}. */
final class FileOptions {

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write here (one input only).")
    Path output;

    @Option(names = {"-c", "--stdout"}, description = "Write to stdout.")
    boolean toStdout;

    @Option(names = {"-f", "--force"},
            description = "Overwrite existing output files; write compressed bytes to a terminal.")
    boolean force;

    @Option(names = {"-v", "--verbose"}, description = "Print a summary line per file even when not on a terminal.")
    boolean verbose;
}
