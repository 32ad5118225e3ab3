package org.adaptivecompress.cli;

import java.io.IOException;
import java.nio.file.FileSystemException;

/**
 * An I/O failure with the file or peer it concerns in its message, as the user will read it:
 * {@code data.adc: not an adaptive-compress stream: ...}.
 */
final class CliException extends IOException {

    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }

    /** A failure with this message, keeping {@code cause} for debugging. */
    CliException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code e} as {@code what: <e described>}, unless it already names its file. */
    static IOException about(String what, IOException e) {
        boolean namesFile = e instanceof FileSystemException && ((FileSystemException) e).getFile() != null;
        if (e instanceof CliException || namesFile) {
            return e;
        }
        return new CliException(what + ": " + ErrorReporter.describe(e), e);
    }
}
