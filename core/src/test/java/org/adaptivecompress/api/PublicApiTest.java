package org.adaptivecompress.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Core's public API is the list below: the streams and their builders, the ladder, the
 * controllers and their extension interface, statistics, the listener and the exceptions.
 * Every other public type lives in an {@code internal} package, which the integrations use and
 * no user should: it may change in any release. A new public type fails this test until it is
 * added here on purpose, or moved.
 */
class PublicApiTest {

    private static final Set<String> API = new TreeSet<>(List.of(
            "org.adaptivecompress.codec.CodecType",
            "org.adaptivecompress.codec.Ladder",
            "org.adaptivecompress.codec.Rung",
            "org.adaptivecompress.control.AdocController",
            "org.adaptivecompress.control.Decision",
            "org.adaptivecompress.control.DecisionListener",
            "org.adaptivecompress.control.FixedController",
            "org.adaptivecompress.control.LevelController",
            "org.adaptivecompress.control.LevelControllers",
            "org.adaptivecompress.control.LinkSample",
            "org.adaptivecompress.control.Objective",
            "org.adaptivecompress.control.Observation",
            "org.adaptivecompress.control.Reason",
            "org.adaptivecompress.control.model.ModelController",
            "org.adaptivecompress.engine.AdaptiveCompressionOptions",
            "org.adaptivecompress.engine.CompressionStatistics",
            "org.adaptivecompress.engine.ReceiverBudget",
            "org.adaptivecompress.format.BadMagicException",
            "org.adaptivecompress.format.BlockSequenceException",
            "org.adaptivecompress.format.ChecksumMismatchException",
            "org.adaptivecompress.format.CorruptFrameException",
            "org.adaptivecompress.format.DecompressionLimitException",
            "org.adaptivecompress.format.FrameFormatException",
            "org.adaptivecompress.format.OversizedBlockException",
            "org.adaptivecompress.format.TruncatedStreamException",
            "org.adaptivecompress.format.UnknownCodecException",
            "org.adaptivecompress.format.UnsupportedVersionException",
            "org.adaptivecompress.metrics.CompressionMetrics",
            "org.adaptivecompress.metrics.StatisticsGroup",
            "org.adaptivecompress.metrics.StatisticsMBean",
            "org.adaptivecompress.metrics.StatisticsMetric",
            "org.adaptivecompress.stream.AdaptiveInputStream",
            "org.adaptivecompress.stream.AdaptiveOutputStream",
            "org.adaptivecompress.stream.AdaptiveSeekableChannel"));

    @Test
    void thePublicTypesOutsideInternalPackagesAreExactlyTheApi() throws Exception {
        Set<String> outsideInternal = new TreeSet<>();
        for (String t : publicTypes()) {
            if (!t.contains(".internal.")) {
                outsideInternal.add(t);
            }
        }
        assertThat(outsideInternal).containsExactlyElementsOf(API);
    }

    @Test
    void theApiNamesNoInternalTypeInItsSignatures() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (String name : API) {
            for (Method m : Class.forName(name).getMethods()) {
                boolean ours = m.getDeclaringClass().getName().startsWith("org.adaptivecompress.");
                if (ours && Stream.concat(Stream.of(m.getReturnType()), Stream.of(m.getParameterTypes()))
                        .anyMatch(t -> t.getName().contains(".internal."))) {
                    leaks.add(m.toString());
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    /** Every public top-level type compiled from core's main sources. */
    private static Set<String> publicTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Paths.get(AdaptiveOutputStream.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(classes).as("core's classes as a directory, as Maven's test run has them").isDirectory();
        Set<String> result = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().contains("$"))
                    .collect(Collectors.toList());
        }
        for (Path f : files) {
            String relative = classes.relativize(f).toString();
            String name = relative.substring(0, relative.length() - ".class".length()).replace(f.getFileSystem().getSeparator(), ".");
            if (name.endsWith("package-info") || name.endsWith("module-info")) {
                continue;
            }
            if (Modifier.isPublic(Class.forName(name, false, PublicApiTest.class.getClassLoader()).getModifiers())) {
                result.add(name);
            }
        }
        return result;
    }
}
