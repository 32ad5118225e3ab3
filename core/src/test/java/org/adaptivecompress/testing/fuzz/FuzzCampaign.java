package org.adaptivecompress.testing.fuzz;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs mutated inputs through one entry point and fails on what a reader must never do: throw
 * anything but its typed exceptions, return bytes its input does not hold, or hang.
 *
 * <p>Input {@code i} of a campaign with seed {@code s} is a function of {@code (s, i)} alone, so a
 * failure reproduces from its index. A failing input is written to
 * {@code target/fuzz-findings/<entry point>/}; once fixed, it belongs in the test resources under
 * {@code fuzz-regressions/<entry point>/}, named {@code s<sample>-<anything>.bin}, and is replayed
 * by every run before the campaign. The number of inputs is {@value #INPUTS_PROPERTY} if set (the
 * {@code fuzz} Maven profile sets a million), else the entry point's bounded default.
 */
public final class FuzzCampaign {

    /** The system property that sets the number of mutated inputs per entry point. */
    public static final String INPUTS_PROPERTY = "adaptive.fuzz.inputs";
    /** An input still running after this long counts as a hang. */
    private static final long HANG_MILLIS = 20_000;
    /** Failures collected before the campaign stops. */
    private static final int MAX_FAILURES = 10;

    /** One entry point under test: decodes an input, returns what it decoded, or throws. */
    @FunctionalInterface
    public interface Reader {
        byte[] read(byte[] input) throws Exception;
    }

    /** Whether what a read returned for an input made from a sample is right. */
    @FunctionalInterface
    public interface Acceptance {
        boolean accepts(Sample sample, byte[] input, byte[] output);
    }

    /** A valid input and the bytes it decodes to. */
    public static final class Sample {
        private final byte[] stream;
        private final byte[] content;

        public Sample(byte[] stream, byte[] content) {
            this.stream = stream;
            this.content = content;
        }

        /** The valid input. */
        public byte[] stream() {
            return stream;
        }

        /** What it decodes to. */
        public byte[] content() {
            return content;
        }
    }

    /** What a campaign saw: inputs run, inputs decoded, and the typed failures by exception. */
    public static final class Report {
        private final String text;

        Report(String entryPoint, int inputs, int decoded, Map<String, Integer> failuresByType) {
            this.text = String.format("%s: %,d inputs, %,d decoded, typed failures %s", entryPoint, inputs,
                    decoded, failuresByType);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private final String entryPoint;
    private final List<Sample> samples;
    private final List<byte[]> donors = new ArrayList<>();
    private final Reader reader;
    private final List<Class<? extends Throwable>> typed;
    private final FrameMutator mutator;
    private Acceptance accepts = (sample, input, output) -> Arrays.equals(output, sample.content());

    /**
     * @param entryPoint names the findings' and regressions' directories
     * @param concatenating whether {@code reader} reads streams past the first end marker
     * @param typed the exceptions the entry point may throw on bad input (subtypes included)
     */
    @SafeVarargs
    public FuzzCampaign(String entryPoint, List<Sample> samples, boolean concatenating, Reader reader,
            Class<? extends Throwable>... typed) {
        this.entryPoint = entryPoint;
        this.samples = List.copyOf(samples);
        this.reader = reader;
        this.typed = List.of(typed);
        this.mutator = new FrameMutator(concatenating);
        samples.forEach(s -> donors.add(s.stream()));
    }

    /**
     * Replaces the check on what a successful read returned (by default: exactly the sample's
     * content), for an entry point whose format cannot tell some damage from data.
     */
    public FuzzCampaign accepting(Acceptance accepts) {
        this.accepts = accepts;
        return this;
    }

    /** The number of inputs to run: the {@value #INPUTS_PROPERTY} property, else {@code bounded}. */
    public static int inputs(int bounded) {
        return Integer.getInteger(INPUTS_PROPERTY, bounded);
    }

    /**
     * Replays the kept regressions, then runs {@code count} mutated inputs.
     *
     * @throws AssertionError listing the failures, with where their inputs were written
     */
    public Report run(long seed, int count) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        for (Path kept : regressions()) {
            Sample sample = samples.get(Integer.parseInt(kept.getFileName().toString().replaceAll("^s(\\d+)-.*", "$1")));
            byte[] input = read(kept);
            String problem = judge(sample, input, attempt(input));
            if (problem != null) {
                failures.add(kept.getFileName() + ": " + problem);
            }
        }
        Map<String, Integer> byType = new TreeMap<>();
        AtomicInteger done = new AtomicInteger();
        AtomicLong startedAt = new AtomicLong(System.nanoTime());
        int[] decoded = {0};
        Thread worker = new Thread(() -> {
            for (int i = 0; i < count && failures.size() < MAX_FAILURES; i++) {
                Random random = new Random(seed * 0x9E3779B97F4A7C15L + i);
                int which = random.nextInt(samples.size());
                Sample sample = samples.get(which);
                byte[] input = random.nextInt(16) == 0 ? sample.stream() : mutator.mutate(sample.stream(), donors, random);
                startedAt.set(System.nanoTime());
                Outcome outcome = attempt(input);
                String problem = judge(sample, input, outcome);
                synchronized (failures) {
                    if (problem != null) {
                        failures.add("input " + i + " (seed " + seed + "): " + problem + "; written to "
                                + save(which, seed, i, input, problem));
                    } else if (outcome.failure == null) {
                        decoded[0]++;
                    } else {
                        byType.merge(outcome.failure.getClass().getSimpleName(), 1, Integer::sum);
                    }
                }
                done.incrementAndGet();
            }
        }, "fuzz-" + entryPoint);
        worker.setDaemon(true); // a hung input cannot be stopped; it must not keep the JVM alive
        worker.start();
        while (worker.isAlive()) {
            worker.join(100);
            if (worker.isAlive() && System.nanoTime() - startedAt.get() > HANG_MILLIS * 1_000_000L) {
                synchronized (failures) {
                    failures.add("input " + done.get() + " (seed " + seed + ") still runs after " + HANG_MILLIS
                            + " ms: a hang");
                }
                break;
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(entryPoint + ": " + failures.size() + " failing input(s):\n"
                    + String.join("\n", failures));
        }
        return new Report(entryPoint, count, decoded[0], byType);
    }

    /** What one read did: its output, or its failure. */
    private static final class Outcome {
        final byte[] output;
        final Throwable failure;

        Outcome(byte[] output, Throwable failure) {
            this.output = output;
            this.failure = failure;
        }
    }

    private Outcome attempt(byte[] input) {
        try {
            return new Outcome(reader.read(input), null);
        } catch (Throwable t) {
            return new Outcome(null, t);
        }
    }

    /** Null if the outcome is one a reader may have, else what is wrong with it. */
    private String judge(Sample sample, byte[] input, Outcome outcome) {
        if (outcome.failure == null) {
            return accepts.accepts(sample, input, outcome.output) ? null
                    : "returned " + outcome.output.length + " bytes that are not the input's content (wrong bytes)";
        }
        for (Class<? extends Throwable> t : typed) {
            if (t.isInstance(outcome.failure)) {
                return null;
            }
        }
        StringWriter trace = new StringWriter();
        outcome.failure.printStackTrace(new PrintWriter(trace));
        return "untyped " + trace;
    }

    private Path save(int sample, long seed, int index, byte[] input, String problem) {
        try {
            Path dir = Files.createDirectories(Paths.get("target", "fuzz-findings", entryPoint));
            Path file = dir.resolve("s" + sample + "-" + seed + "-" + index + ".bin");
            Files.write(file, input);
            Files.writeString(dir.resolve(file.getFileName() + ".txt"), problem);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Path> regressions() {
        URL root = FuzzCampaign.class.getResource("/fuzz-regressions/" + entryPoint);
        List<Path> files = new ArrayList<>();
        if (root == null) {
            return files;
        }
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Paths.get(root.toURI()), "s*.bin")) {
            dir.forEach(files::add);
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list the kept regressions of " + entryPoint, e);
        }
        files.sort(null);
        return files;
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
