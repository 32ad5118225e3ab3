package org.adaptivecompress.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Finds and reads the shared reference corpus ({@code ../shared/data/corpus/} beside the
 * checkout): the build passes its location as the {@code adaptive.corpus.dir} system property;
 * otherwise it is looked for above the working directory.
 */
public final class Corpus {

    private static final Path DIRECTORY = locate();

    private Corpus() {}

    /** The corpus directory. */
    public static Path directory() {
        return DIRECTORY;
    }

    /** The bytes of one corpus file, e.g. {@code alice29.txt}. */
    public static byte[] read(String name) {
        try {
            return Files.readAllBytes(DIRECTORY.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read corpus file " + name + " in " + DIRECTORY, e);
        }
    }

    private static Path locate() {
        String configured = System.getProperty("adaptive.corpus.dir");
        if (configured != null && Files.isDirectory(Paths.get(configured))) {
            return Paths.get(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data/corpus");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("reference corpus not found: set -Dadaptive.corpus.dir or check out"
                + " the project beside shared/data/corpus (configured: " + configured + ")");
    }
}
