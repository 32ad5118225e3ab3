package org.adaptivecompress.control;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Names for controllers, so that configuration files can choose one by a string:
 * {@code throughput} (the default: a model of each rung and of the link,
 * {@link ThroughputController}), {@code adoc} (AdOC's rule, the reference) or {@code fixed:N}
 * (always rung N).
 */
public final class LevelControllers {

    /**
     * The name of the default controller: the throughput model, which the link benchmark
     * measured ahead of AdOC's rule on fast links and level elsewhere (docs/PERFORMANCE.md).
     */
    public static final String DEFAULT_NAME = "throughput";

    private LevelControllers() {}

    /** A factory for the default controller. */
    public static Supplier<LevelController> defaultController() {
        return ThroughputController::new;
    }

    /**
     * A factory for the controller with this name.
     *
     * @throws IllegalArgumentException naming the unknown controller and the known ones
     */
    public static Supplier<LevelController> byName(String name) {
        Objects.requireNonNull(name, "name is null");
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("adoc")) {
            return AdocController::new;
        }
        if (n.equals("throughput")) {
            return ThroughputController::new;
        }
        if (n.startsWith("fixed:")) {
            int rung;
            try {
                rung = Integer.parseInt(n.substring("fixed:".length()).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("controller '" + name + "': fixed:N needs an integer rung", e);
            }
            FixedController fixed = new FixedController(rung);
            return () -> fixed;
        }
        throw new IllegalArgumentException("unknown controller '" + name + "'; expected adoc, throughput or fixed:N");
    }
}
