package org.adaptivecompress.cli;

/**
 * Whether the standard streams are terminals: stderr decides if progress bars are drawn, stdin
 * and stdout whether the tool may read or write data there.
 *
 * <p>The JDK cannot test one stream alone, so the launcher script, which can ({@code [ -t 2 ]}),
 * passes the answers as the system properties {@value #PROPERTY}, {@value #STDIN_PROPERTY} and
 * {@value #STDOUT_PROPERTY}. Without them, a console (stdin and stdout both terminals) is taken as
 * a terminal session.
 */
final class Terminal {

    /** {@code true} or {@code false}, set by {@code bin/adaptive-compress}. */
    static final String PROPERTY = "adaptive-compress.stderr.tty";
    /** As {@link #PROPERTY}, for stdin. */
    static final String STDIN_PROPERTY = "adaptive-compress.stdin.tty";
    /** As {@link #PROPERTY}, for stdout. */
    static final String STDOUT_PROPERTY = "adaptive-compress.stdout.tty";

    private Terminal() {}

    static boolean stderrIsTerminal() {
        return isTerminal(PROPERTY);
    }

    static boolean stdinIsTerminal() {
        return isTerminal(STDIN_PROPERTY);
    }

    static boolean stdoutIsTerminal() {
        return isTerminal(STDOUT_PROPERTY);
    }

    private static boolean isTerminal(String property) {
        String told = System.getProperty(property);
        if (told != null) {
            return Boolean.parseBoolean(told);
        }
        return System.console() != null;
    }
}
