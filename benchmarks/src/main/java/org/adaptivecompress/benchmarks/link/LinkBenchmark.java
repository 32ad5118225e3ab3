package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.adaptivecompress.benchmarks.link.agent.Contender;
import org.adaptivecompress.benchmarks.link.net.Link;
import org.adaptivecompress.benchmarks.link.net.Links;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.adaptivecompress.benchmarks.scenario.Scenario;

/**
 * The link benchmark ({@code benchmarks.jar link}): every contender sends the same data from a
 * sending agent to a receiving agent, two JVMs over loopback TCP through a link shaped by the
 * kernel (or a pacing relay where it cannot be), per scenario and rate, plus a cell whose rate
 * steps 1 Gbit/s -> 10 Mbit/s -> 1 Gbit/s and one with a busy core. Writes a CSV, a markdown
 * report and PNG charts ({@link LinkReport}).
 */
public final class LinkBenchmark {

    /** The busy-core cell's rate: where compression pays and needs a core. */
    static final long BUSY_RATE = Rates.parse("100mbit");
    /** A warm-up transfer cut off after this long: it only compiles the code paths. */
    private static final double WARMUP_DEADLINE = 10;

    private final LinkConfig config;
    private final List<Contender> contenders;
    private final Agents agents;
    private final PrintStream progress;
    private final CellRunner runner;

    LinkBenchmark(LinkConfig config, List<Contender> contenders, Agents agents, PrintStream progress) {
        this.config = config;
        this.contenders = contenders;
        this.agents = agents;
        this.progress = progress;
        this.runner = new CellRunner(config.sizes(), progress);
    }

    /** Runs the benchmark from the command line (arguments after {@code link}); returns the exit status. */
    public static int run(String... args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        LinkConfig config = LinkConfig.parse(args);
        PrintStream log = System.err;
        List<String> notes = new ArrayList<>();
        List<Contender> contenders = available(config.contenders(), notes, log);
        LinkReport.Results results;
        Environment environment;
        try (Link link = Links.open(config.link(), log); Agents agents = Agents.start(link, config.trace(), log)) {
            environment = Environment.of(link);
            environment.lines().forEach(log::println);
            results = new LinkBenchmark(config, contenders, agents, log).measure(notes);
            results = results.withCounters(link.counters());
        }
        Files.createDirectories(config.out());
        LinkReport.write(config, environment, results);
        log.println("results in " + config.out().toAbsolutePath());
        return results.measurements().stream().allMatch(m -> m.run().verified() || m.run().aborted()) ? 0 : 1;
    }

    /** The contenders whose binaries exist; a note for each skipped. */
    static List<Contender> available(List<Contender> wanted, List<String> notes, PrintStream log) {
        List<Contender> chosen = new ArrayList<>();
        for (Contender c : wanted) {
            if (c.kind() == Contender.Kind.NATIVE && !Environment.installed(c.binary())) {
                String note = c.label() + " skipped: no " + c.binary() + " binary on the PATH";
                notes.add(note);
                log.println(note);
            } else {
                chosen.add(c);
            }
        }
        return List.copyOf(chosen);
    }

    /** Runs every cell the configuration asks for. */
    LinkReport.Results measure(List<String> notes) throws IOException {
        List<Measurement> all = new ArrayList<>();
        warmUp(notes);
        String set = config.set().label();
        if (config.cells().contains(Measurement.Kind.RATE)) {
            for (Scenario scenario : config.scenarios()) {
                for (long rate : config.rates()) {
                    long length = config.sizes().lengthFor(rate);
                    agents.prepare(scenario, 0, length);
                    agents.link().setRate(rate);
                    Measurement.Cell cell = Measurement.Cell.rate(set, scenario.name(), scenario.description(), rate);
                    all.addAll(runner.measure(cell, contenders, length,
                            (c, deadline) -> agents.transfer(c, length, deadline, List.of())));
                }
            }
        }
        StepCell.Result step = null;
        if (config.cells().contains(Measurement.Kind.STEP)) {
            step = new StepCell(agents, runner).run(set, config.set().mixedScenario(), config.sizes().stepLength(),
                    contenders);
            all.addAll(step.measurements());
        }
        if (config.cells().contains(Measurement.Kind.BUSY)) {
            all.addAll(busyCore(set, config.set().mixedScenario()));
            notes.add("busy-core cell: one thread of the driver spins for the whole cell, taking one of the "
                    + Runtime.getRuntime().availableProcessors() + " cores");
        }
        notes.add(String.format(Locale.ROOT, "runs: the median of %d runs of each transfer under %.1f s (%d"
                + " unthrottled), else one; a transfer is cut off at max(%.1f s, %.1fx the cell's fastest so far)",
                config.sizes().repeats(), config.sizes().repeatBelowSeconds(), config.sizes().unthrottledRepeats(),
                config.sizes().deadlineFloorSeconds(), config.sizes().deadlineFactor()));
        return new LinkReport.Results(all, step == null ? List.of() : List.of(step.best()),
                step == null ? List.of() : step.recoveries(), Map.of(), notes);
    }

    private void warmUp(List<String> notes) throws IOException {
        long length = config.sizes().warmupLength();
        agents.prepare(config.set().mixedScenario(), 0, length);
        agents.link().setRate(Rates.UNLIMITED);
        for (Contender c : contenders) {
            agents.transfer(c, length, WARMUP_DEADLINE, List.of());
        }
        progress.printf(Locale.ROOT, "warmed up: each contender sent %d KiB unthrottled once, unrecorded%n",
                length >> 10);
        notes.add("warm-up: each contender first sent " + (length >> 10) + " KiB of "
                + config.set().mixedScenario().name() + " unthrottled once, unrecorded (JIT, native contexts)");
    }

    private List<Measurement> busyCore(String set, Scenario scenario) throws IOException {
        long length = config.sizes().lengthFor(BUSY_RATE);
        agents.prepare(scenario, 0, length);
        agents.link().setRate(BUSY_RATE);
        Measurement.Cell cell = new Measurement.Cell(set, scenario.name(), scenario.description(),
                Measurement.Kind.BUSY, BUSY_RATE, Rates.label(BUSY_RATE) + ", a core busy");
        try (CpuHog hog = CpuHog.start()) {
            return runner.measure(cell, contenders, length, (c, deadline) -> agents.transfer(c, length, deadline,
                    List.of()));
        }
    }
}
