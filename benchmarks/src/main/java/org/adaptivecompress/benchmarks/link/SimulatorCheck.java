package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.adaptivecompress.benchmarks.link.net.Rates;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.testing.LinkSimulation;
import org.adaptivecompress.testing.LinkSimulation.Profile;

/**
 * Checks the controller simulator against a kernel-shaped run of the link benchmark:
 * {@code simulate --results link-results.csv --scenario homogeneous:7001 [--buffer BYTES]}.
 * Each fixed rung's speed (its fastest transfer of the scenario in the run, unthrottled ones
 * included) and ratio (input over wire bytes in its slowest finished cell) become the
 * simulator's profile; every throttled
 * rate cell of the scenario is then simulated with the same input, each fixed rung and the
 * default controller, and printed beside what the kernel measured, as a markdown table.
 * {@code --buffer} fixes the simulated send buffer's size instead of growing it as Linux does.
 */
public final class SimulatorCheck {

    private static final String USAGE = "usage: simulate --results link-results.csv --scenario NAME [--buffer BYTES]";
    private static final int BLOCK = 128 * 1024;
    private static final long FIFO = 1 << 20;
    /** The simulated blocks' speed and ratio vary by this much, as the tests' simulations do. */
    private static final double NOISE = 0.05;
    private static final long SEED = 42;
    /** A simulated fixed rung agrees with the kernel's when within this share of its time. */
    private static final double AGREEMENT = 0.10;

    /** A fixed rung's or the default's transfer in one rate cell of the run. */
    record Transfer(long rate, int rung, long inputBytes, double seconds, long wireBytes, boolean aborted) {
        /** The rung of the default controller's transfers. */
        static final int DEFAULT = -1;
    }

    private SimulatorCheck() {}

    /** Runs the check; 0 on success, 2 on bad arguments or a run without the scenario's figures. */
    public static int run(String[] args, PrintStream out) throws IOException {
        String results = null;
        String scenario = null;
        long buffer = LinkSimulation.LINUX;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--results" -> results = args[i + 1];
                case "--scenario" -> scenario = args[i + 1];
                case "--buffer" -> buffer = Long.parseLong(args[i + 1]);
                default -> {
                    out.println("unknown option '" + args[i] + "'; " + USAGE);
                    return 2;
                }
            }
        }
        if (results == null || scenario == null || args.length % 2 != 0) {
            out.println(USAGE);
            return 2;
        }
        int rungs = Ladder.defaultLadder().size();
        List<Transfer> transfers = transfers(Files.readAllLines(Paths.get(results), StandardCharsets.UTF_8), scenario);
        try {
            Profile profile = profile(transfers, rungs);
            out.print(table(transfers, profile, rungs, buffer));
            return 0;
        } catch (IllegalArgumentException e) {
            out.println(e.getMessage());
            return 2;
        }
    }

    /**
     * The fixed rungs' and the default's transfers in the scenario's rate cells of the
     * benchmark's CSV; the unthrottled ones show the codecs' speeds, the throttled ones are compared.
     */
    static List<Transfer> transfers(List<String> csv, String scenario) {
        List<Transfer> transfers = new ArrayList<>();
        for (String line : csv.subList(1, csv.size())) {
            List<String> f = fields(line);
            String contender = f.get(4);
            boolean fixed = contender.startsWith("fixed:");
            if (!f.get(1).equals(Measurement.Kind.RATE.label()) || !f.get(2).equals(scenario)
                    || !(fixed || contender.equals("default"))) {
                continue;
            }
            int rung = fixed ? Integer.parseInt(contender.substring(6).split(" ")[0]) : Transfer.DEFAULT;
            transfers.add(new Transfer(Rates.parse(f.get(3).replace(" ", "").replace("/s", "")), rung,
                    Long.parseLong(f.get(5)), Double.parseDouble(f.get(6)), Long.parseLong(f.get(7)),
                    Boolean.parseBoolean(f.get(9))));
        }
        return transfers;
    }

    /**
     * Each rung's speed, its fastest finished transfer's input bytes per second, and ratio,
     * input over wire bytes in its slowest finished cell.
     *
     * @throws IllegalArgumentException if a rung finished no transfer
     */
    static Profile profile(List<Transfer> transfers, int rungs) {
        double[] speed = new double[rungs];
        double[] ratio = new double[rungs];
        long[] ratioRate = new long[rungs];
        Arrays.fill(ratioRate, Long.MAX_VALUE);
        for (Transfer t : transfers) {
            if (t.rung() == Transfer.DEFAULT || t.aborted()) {
                continue;
            }
            speed[t.rung()] = Math.max(speed[t.rung()], t.inputBytes() / t.seconds());
            if (t.rate() < ratioRate[t.rung()]) {
                ratioRate[t.rung()] = t.rate();
                ratio[t.rung()] = (double) t.inputBytes() / t.wireBytes();
            }
        }
        for (int r = 0; r < rungs; r++) {
            if (speed[r] == 0) {
                throw new IllegalArgumentException("the run has no finished transfer at rung " + r
                        + " of this scenario to take its speed and ratio from");
            }
        }
        return new Profile(speed, ratio);
    }

    /** The kernel's and the simulator's figures, a row per rate. */
    static String table(List<Transfer> transfers, Profile profile, int rungs, long buffer) {
        Ladder ladder = Ladder.defaultLadder();
        Map<Long, List<Transfer>> byRate = new TreeMap<>();
        transfers.stream().filter(t -> t.rate() != Rates.UNLIMITED)
                .forEach(t -> byRate.computeIfAbsent(t.rate(), r -> new ArrayList<>()).add(t));
        StringBuilder md = new StringBuilder("| rate | kernel: best fixed | simulator: best fixed | fixed rungs"
                + " within 10 % | kernel: default / best | simulator: default / best |\n|---|---|---|---:|---:|---:|\n");
        for (Map.Entry<Long, List<Transfer>> cell : byRate.entrySet()) {
            long rate = cell.getKey();
            int blocks = (int) Math.max(1, cell.getValue().get(0).inputBytes() / BLOCK);
            double[] simulated = new double[rungs];
            for (int r = 0; r < rungs; r++) {
                simulated[r] = simulation(buffer).run(new FixedController(r), blocks, i -> profile, i -> rate).seconds();
            }
            double simulatedDefault = simulation(buffer)
                    .run(LevelControllers.defaultController().get(), blocks, i -> profile, i -> rate).seconds();
            int simulatedBest = argMin(simulated);
            Transfer kernelBest = null;
            double kernelDefault = Double.NaN;
            int agree = 0;
            int finished = 0;
            for (Transfer t : cell.getValue()) {
                if (t.rung() == Transfer.DEFAULT) {
                    kernelDefault = t.seconds();
                } else if (!t.aborted()) {
                    finished++;
                    agree += Math.abs(t.seconds() / simulated[t.rung()] - 1) <= AGREEMENT ? 1 : 0;
                    kernelBest = kernelBest == null || t.seconds() < kernelBest.seconds() ? t : kernelBest;
                }
            }
            md.append(String.format(Locale.ROOT, "| %s | %s %.3f s | %s %.3f s | %d of %d | %.2f | %.2f |%n",
                    Rates.label(rate), ladder.rung(kernelBest.rung()), kernelBest.seconds(),
                    ladder.rung(simulatedBest), simulated[simulatedBest], agree, finished,
                    kernelDefault / kernelBest.seconds(), simulatedDefault / simulated[simulatedBest]));
        }
        return md.toString();
    }

    private static LinkSimulation simulation(long buffer) {
        return new LinkSimulation(BLOCK, FIFO, buffer, NOISE, SEED);
    }

    private static int argMin(double[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            best = values[i] < values[best] ? i : best;
        }
        return best;
    }

    /** A CSV line's fields, quoted ones ({@link LinkReport#csvField}) unquoted. */
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                field.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
