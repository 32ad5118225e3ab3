package org.adaptivecompress.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A temporary directory that the examples work in and delete, with everything in it, when done. */
public final class WorkDirectory implements AutoCloseable {

    private final Path path;

    private WorkDirectory(Path path) {
        this.path = path;
    }

    /** Creates a fresh directory under {@code java.io.tmpdir}. */
    public static WorkDirectory create(String prefix) throws IOException {
        return new WorkDirectory(Files.createTempDirectory(prefix));
    }

    /** The directory. */
    public Path path() {
        return path;
    }

    /** Deletes the directory and its contents. */
    @Override
    public void close() throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(path)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
