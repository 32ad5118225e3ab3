package org.adaptivecompress.benchmarks.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The two fixed sets of scenarios: the same families, different seeds. A controller is tuned by
 * looking at the tuning set only; the held-out set checks that what was tuned holds on data it
 * was not tuned on, and only its figures make claims.
 */
public enum ScenarioSet {
    /**
     * The seeds to tune on: run {@code link --set tuning} while changing a controller, and
     * look at these as much as needed.
     */
    TUNING(11, 12),
    /**
     * The seeds never tuned on: the default of {@code link} and the only figures quoted as
     * results. Changing a controller because of them makes them tuning seeds; then draw new ones.
     */
    HELD_OUT(7001, 7002);

    private final long[] seeds;

    ScenarioSet(long... seeds) {
        this.seeds = seeds;
    }

    /** {@code tuning} or {@code held-out}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The set labelled {@code label}. */
    public static ScenarioSet byLabel(String label) {
        for (ScenarioSet s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario set '" + label + "'; expected held-out or tuning");
    }

    /** The seeds of this set, the same for every family. */
    public long[] seeds() {
        return seeds.clone();
    }

    /** Every family with every seed of this set, family by family. */
    public List<Scenario> scenarios() {
        List<Scenario> all = new ArrayList<>();
        for (Family f : Family.values()) {
            for (long seed : seeds) {
                all.add(new Scenario(f, seed));
            }
        }
        return List.copyOf(all);
    }

    /** The set's first mixed scenario: the data of the rate-step and busy-core cells. */
    public Scenario mixedScenario() {
        return new Scenario(Family.MIXED, seeds[0]);
    }
}
