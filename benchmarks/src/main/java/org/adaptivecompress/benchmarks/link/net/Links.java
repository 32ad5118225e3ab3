package org.adaptivecompress.benchmarks.link.net;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

/** Chooses and opens the link: the kernel's where it can shape one, else the relay. */
public final class Links {

    /** Which link to use. */
    public enum Choice {
        /** The kernel's if root and {@code ip netns} and {@code tc} work, else the relay. */
        AUTO,
        /** The kernel's, or fail saying why not. */
        KERNEL,
        /** The relay, even where the kernel could shape. */
        RELAY;

        /** {@code auto}, {@code kernel} or {@code relay}. */
        public static Choice parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--link is auto, kernel or relay, not '" + text + "'", e);
            }
        }
    }

    private Links() {}

    /** Opens the link {@code choice} asks for, saying on {@code log} what it fell back from and why. */
    public static Link open(Choice choice, PrintStream log) throws IOException {
        if (choice != Choice.RELAY) {
            try {
                return KernelLink.open();
            } catch (LinkSetupException e) {
                if (choice == Choice.KERNEL) {
                    throw e;
                }
                log.println("kernel-shaped link unavailable (" + e.getMessage() + "); falling back to the pacing relay");
            }
        }
        Namespace namespace = null;
        try {
            namespace = Namespace.create();
        } catch (LinkSetupException e) {
            log.println("no namespace for the relay (" + e.getMessage() + "); it runs on the host's loopback");
        }
        return RelayLink.open(namespace);
    }
}
