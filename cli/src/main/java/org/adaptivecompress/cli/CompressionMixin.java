package org.adaptivecompress.cli;

import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.codec.Rung;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every compressing command shares: ladder, controller (or zstd's {@code -#} and
 * {@code --adapt}) and its objective, threads, block size and histories.
 */
final class CompressionMixin {

    /** zstd's highest level without {@code --ultra}. */
    static final int MAX_REGULAR_LEVEL = 19;
    /** zstd's highest level. */
    static final int MAX_LEVEL = 22;

    @Option(names = "--ladder", paramLabel = "SPEC", converter = Converters.LadderSpec.class,
            description = "Rungs to choose from, fastest first (default: ${DEFAULT-VALUE}).")
    String ladder = Ladder.DEFAULT_SPEC;

    @Option(names = "--controller", paramLabel = "NAME", converter = Converters.ControllerName.class,
            description = "model (the library's default), adoc (AdOC's rule), fixed:N (always rung N), "
                    + "or another controller the library names; default fixed:3 (zstd:3) for files, the "
                    + "library's default for send.")
    String controller;

    @Option(names = "--objective", paramLabel = "SPEC", converter = Converters.ObjectiveSpec.class,
            description = "What the model controller optimises: time (default), cpu-budget:S (at most S cores for "
                    + "compression), cost:egress=E,cpu=C[,decode=D][,floor=RATE][,deadline=TIME] (the least money "
                    + "per GB sent, CPU-second of compression and, with decode=, of the receiver's decoding; with "
                    + "deadline=, the cheapest way to finish a file within TIME). "
                    + "Another than time implies --controller model unless a controller is given.")
    Objective objective = Objective.time();

    @Option(names = "--level", paramLabel = "N", hidden = true,
            description = "zstd's -N: 1-22, the ladder's zstd rung nearest below N, or its top from 19.")
    Integer level;

    @Option(names = "--adapt", description = "Adapt the rung to how fast the output drains: the library's default "
            + "controller, as --controller model.")
    boolean adapt;

    @Option(names = {"-T", "--threads"}, paramLabel = "N", converter = Converters.Threads.class,
            description = "Compress on up to N threads; 0: one per core (default: 1).")
    int threads = 1;

    @Option(names = "--block-size", paramLabel = "BYTES", converter = Converters.BlockSize.class,
            description = "Input bytes per block, e.g. 128k (default: 128k).")
    int blockSize = AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE;

    @Option(names = "--max-block-size", paramLabel = "BYTES", converter = Converters.BlockSize.class,
            description = "The longest block: a controller that adapts grows blocks up to it while the link, not the "
                    + "CPU, is the bound; the block size to keep every block at that size (default: 1m, or the block "
                    + "size if larger).")
    Integer maxBlockSize;

    @Option(names = "--history", negatable = true, description = "Let zstd and xz rungs match across blocks as "
            + "far back as zstd and xz themselves do at the same level, never across a reset point (default: on for a fixed rung, "
            + "off for a controller that adapts, as in the library).")
    Boolean history;

    @Option(names = "--reset-interval", paramLabel = "BYTES", converter = Converters.SizeOrZero.class,
            description = "With histories, a reset point every BYTES of input, where Hadoop splits and readers that "
                    + "seek can start; 0 for none (default: 8m).")
    int resetInterval = (int) AdaptiveCompressionOptions.FILE_RESET_INTERVAL;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** What the reader accepts, when it told us ({@code send}); null for anything. */
    private ReceiverBudget budget;

    /** Keeps the stream inside what the reader advertised. */
    void within(ReceiverBudget budget) {
        this.budget = budget;
    }

    /**
     * An output-stream builder with these options, {@code defaultController} if none was given,
     * for an input of {@code inputLength} bytes (-1 if unknown).
     *
     * @throws ParameterException if the options do not fit together ({@code fixed:N} past the
     *     ladder's top, a deadline for an input of unknown length)
     */
    AdaptiveOutputStream.Builder builder(String defaultController, long inputLength) {
        AdaptiveCompressionOptions options;
        try {
            String controllerName = controllerOr(defaultController);
            boolean withHistory = history != null ? history : LevelControllers.fixedRung(controllerName) >= 0;
            if (objective.hasDeadline() && inputLength < 0) {
                throw new IllegalArgumentException("--objective with a deadline needs the input's size, which "
                        + "standard input and compressed inputs do not have");
            }
            options = AdaptiveCompressionOptions.builder().ladder(ladder).controller(controllerName)
                    .objective(objective.hasDeadline() ? objective.forLength(inputLength) : objective)
                    .blockSize(blockSize).history(withHistory)
                    .resetInterval(withHistory ? resetInterval : 0)
                    .build();
            if (maxBlockSize != null) {
                options = options.toBuilder().maxBlockSize(maxBlockSize).build();
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage(), e);
        }
        int workers = threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
        return AdaptiveOutputStream.builder().compression(budget == null ? options : options.within(budget, workers))
                .maxWorkers(workers);
    }

    /** The controller {@code --controller}, {@code --adapt} or {@code -#} name, or {@code defaultController}. */
    private String controllerOr(String defaultController) {
        int chosen = (controller != null ? 1 : 0) + (adapt ? 1 : 0) + (level != null ? 1 : 0);
        if (chosen > 1) {
            throw new ParameterException(command.commandLine(), "--controller, --adapt and -# each choose the"
                    + " controller: give one of them");
        }
        if (adapt) {
            return LevelControllers.DEFAULT_NAME;
        }
        if (level != null) {
            if (level < 1 || level > MAX_LEVEL) {
                throw new ParameterException(command.commandLine(), "levels run from -1 to -" + MAX_LEVEL + ", was -" + level);
            }
            try {
                return "fixed:" + rungForLevel(Ladder.parse(ladder), level);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(command.commandLine(), e.getMessage(), e);
            }
        }
        if (controller == null && objective.kind() != Objective.Kind.TIME) {
            return LevelControllers.DEFAULT_NAME; // only the model controller weighs CPU or money
        }
        return controller == null ? defaultController : controller;
    }

    /**
     * The rung zstd's level {@code n} stands for on {@code ladder}: its zstd rung with the highest
     * level up to {@code n}, or the rung below its lowest zstd rung if {@code n} is under every
     * one; from 19 (zstd's slowest without --ultra), the ladder's top rung (xz:6 on the default
     * ladder).
     *
     * @throws IllegalArgumentException if the ladder has no zstd rung
     */
    static int rungForLevel(Ladder ladder, int n) {
        int best = -1;
        int lowest = -1;
        for (int r = 0; r < ladder.size(); r++) {
            Rung rung = ladder.rung(r);
            if (rung.codec() != CodecType.ZSTD) {
                continue;
            }
            lowest = lowest < 0 ? r : lowest;
            if (rung.level() <= n && (best < 0 || rung.level() >= ladder.rung(best).level())) {
                best = r;
            }
        }
        if (lowest < 0) {
            throw new IllegalArgumentException("-" + n + " picks one of the ladder's zstd rungs, and '" + ladder
                    + "' has none; use --controller fixed:N");
        }
        if (n >= MAX_REGULAR_LEVEL) {
            return ladder.top();
        }
        return best >= 0 ? best : Math.max(0, lowest - 1);
    }
}
