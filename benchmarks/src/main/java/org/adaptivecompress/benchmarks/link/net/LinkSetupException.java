package org.adaptivecompress.benchmarks.link.net;

import java.io.IOException;

/** A link could not be set up or changed: a command failed, and the message says which and why. */
public final class LinkSetupException extends IOException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the command and its error output. */
    public LinkSetupException(String message) {
        super(message);
    }

    /** With a message and the failure behind it. */
    public LinkSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
