package org.adaptivecompress.control;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.adaptivecompress.control.model.ModelController;

/**
 * Names for controllers, so that configuration files can choose one by a string:
 * {@code model} (the default: a model of each rung and of the link,
 * {@link ModelController}), {@code adoc} (AdOC's rule, the reference) or {@code fixed:N}
 * (always rung N).
 */
public final class LevelControllers {

    /** The name of the default controller, {@link ModelController}. */
    public static final String DEFAULT_NAME = "model";

    private LevelControllers() {}

    /** A factory for the default controller. */
    public static Supplier<LevelController> defaultController() {
        return ModelController::new;
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
        if (n.equals("model")) {
            return ModelController::new;
        }
        int rung = fixedRung(name);
        if (rung >= 0) {
            FixedController fixed = new FixedController(rung);
            return () -> fixed;
        }
        throw new IllegalArgumentException("unknown controller '" + name + "'; expected model, adoc or fixed:N");
    }

    /**
     * The rung a name {@code fixed:N} pins (N, whatever the ladder), or -1 for any other name.
     *
     * @throws IllegalArgumentException if N is not a rung number
     */
    public static int fixedRung(String name) {
        String n = Objects.requireNonNull(name, "name is null").trim().toLowerCase(Locale.ROOT);
        if (!n.startsWith("fixed:")) {
            return -1;
        }
        int rung;
        try {
            rung = Integer.parseInt(n.substring("fixed:".length()).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("controller '" + name + "': fixed:N needs an integer rung", e);
        }
        if (rung < 0) {
            throw new IllegalArgumentException("controller '" + name + "': rung must be at least 0, was " + rung);
        }
        return rung;
    }
}
