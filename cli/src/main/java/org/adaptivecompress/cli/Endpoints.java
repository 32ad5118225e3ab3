package org.adaptivecompress.cli;

import java.io.BufferedOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens the files and standard streams commands read and write, with {@code zstd}'s rules: an
 * existing output is never replaced without {@code -f}, an input is never its own output, and
 * a failed run deletes the output it created.
 */
final class Endpoints {

    /** The name that means stdin or stdout. */
    static final String STDIO = "-";

    private Endpoints() {}

    /** {@code name} opened for reading, or {@code stdin} for {@value #STDIO}. */
    static Transcoder.Source input(String name, InputStream stdin) throws IOException {
        if (STDIO.equals(name)) {
            return new Transcoder.Source("stdin", keepOpen(stdin), -1);
        }
        Path path = Path.of(name);
        if (Files.isDirectory(path)) {
            throw new CliException(name + ": is a directory");
        }
        InputStream in = Files.newInputStream(path);
        return new Transcoder.Source(name, in, Files.size(path));
    }

    /** stdout as a sink that the job flushes but does not close. */
    static Transcoder.Sink stdout(OutputStream stdout) {
        return new Transcoder.Sink("stdout", stdout, false);
    }

    /**
     * {@code output} created for writing; replaced only if {@code force}, and never if it is the
     * file {@code input} names ({@value #STDIO} when the input is not a file).
     */
    static Transcoder.Sink output(Path output, boolean force, String input) throws IOException {
        if (Files.exists(output)) {
            if (!STDIO.equals(input) && Files.exists(Path.of(input)) && Files.isSameFile(output, Path.of(input))) {
                throw new CliException(output + ": is the input file too");
            }
            if (!force) {
                throw new CliException(output + ": already exists; use -f to overwrite");
            }
        }
        OutputStream out = force
                ? Files.newOutputStream(output, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE)
                : Files.newOutputStream(output, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new Transcoder.Sink(output.toString(), new BufferedOutputStream(out, 1 << 16), true);
    }

    /** Removes what a failed run left behind, adding any failure to do so to {@code cause}. */
    static void deletePartial(Path output, Exception cause) {
        try {
            Files.deleteIfExists(output);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }

    private static InputStream keepOpen(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public void close() {
                // stdin belongs to the process, not to one job
            }
        };
    }
}
