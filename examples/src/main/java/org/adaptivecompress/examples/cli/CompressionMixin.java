package org.adaptivecompress.examples.cli;

import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.engine.CompressionOptions;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every compressing command shares: ladder, controller, block size and histories. */
final class CompressionMixin {

    @Option(names = "--ladder", paramLabel = "SPEC", converter = Converters.LadderSpec.class,
            description = "Rungs to choose from, fastest first (default: ${DEFAULT-VALUE}).")
    String ladder = Ladder.DEFAULT_SPEC;

    @Option(names = "--controller", paramLabel = "NAME", converter = Converters.ControllerName.class,
            description = "model (the library's default), adoc (AdOC's rule), fixed:N (always rung N), "
                    + "or another controller the library names; default fixed:3 (zstd:3) for files, the "
                    + "library's default for send.")
    String controller;

    @Option(names = "--block-size", paramLabel = "BYTES", converter = Converters.BlockSize.class,
            description = "Input bytes per block, e.g. 128k (default: 128k).")
    int blockSize = CompressionOptions.DEFAULT_BLOCK_SIZE;

    @Option(names = "--history", description = "Let zstd and xz rungs match up to 2 MiB back across blocks, as "
            + "zstd and xz themselves do: smaller output where data repeats, blocks that decode only in order, so Hadoop "
            + "cannot split the file (default: off).")
    boolean history;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * An output-stream builder with these options, {@code defaultController} if none was given.
     *
     * @throws ParameterException if the options do not fit together ({@code fixed:N} past the ladder's top)
     */
    AdaptiveOutputStream.Builder builder(String defaultController) {
        CompressionOptions options;
        try {
            options = CompressionOptions.builder().ladder(ladder)
                    .controller(controller == null ? defaultController : controller)
                    .blockSize(blockSize).history(history).build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage(), e);
        }
        return AdaptiveOutputStream.builder().compression(options);
    }
}
