package org.adaptivecompress.examples.cli;

/**
 * Whether standard error is a terminal, which decides if progress bars are drawn.
 *
 * <p>The JDK cannot test stderr alone, so the launcher script, which can ({@code [ -t 2 ]}),
 * passes the answer as the system property {@value #PROPERTY}. Without it, a console (stdin
 * and stdout both terminals) is taken as a terminal session.
 */
final class Terminal {

    /** {@code true} or {@code false}, set by {@code bin/adaptive-compress}. */
    static final String PROPERTY = "adaptive-compress.stderr.tty";

    private Terminal() {}

    static boolean stderrIsTerminal() {
        String told = System.getProperty(PROPERTY);
        if (told != null) {
            return Boolean.parseBoolean(told);
        }
        return System.console() != null;
    }
}
