package org.adaptivecompress.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one line {@code adaptive-compress: <message>} on stderr: a user of a
 * command-line tool wants to know what to fix, not where in the code it broke.
 *
 * <p>Exit codes: {@value #USAGE} for bad arguments (picocli's parse errors and a command's
 * {@link ParameterException}), {@value #FAILURE} for I/O errors and bad input.
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {

    /** Bad command line. */
    static final int USAGE = 2;
    /** I/O error, bad input, failed transfer. */
    static final int FAILURE = 1;

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        ex.getCommandLine().getErr().println(AdaptiveCompressCli.NAME + ": " + oneLine(ex.getMessage()));
        return USAGE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        commandLine.getErr().println(AdaptiveCompressCli.NAME + ": " + describe(ex));
        return ex instanceof ParameterException ? USAGE : FAILURE;
    }

    /** What went wrong, in words, without the exception's class unless it has nothing else to say. */
    static String describe(Throwable t) {
        Throwable e = t instanceof UncheckedIOException && t.getCause() != null ? t.getCause() : t;
        if (e instanceof NoSuchFileException) {
            return ((NoSuchFileException) e).getFile() + ": no such file or directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return ((FileAlreadyExistsException) e).getFile() + ": already exists; use -f to overwrite";
        }
        if (e instanceof AccessDeniedException) {
            return ((AccessDeniedException) e).getFile() + ": permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return ((NotDirectoryException) e).getFile() + ": not a directory";
        }
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return e instanceof IOException ? "I/O error (" + e.getClass().getSimpleName() + ")"
                    : "internal error (" + e.getClass().getName() + ")";
        }
        return oneLine(message);
    }

    private static String oneLine(String message) {
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}
