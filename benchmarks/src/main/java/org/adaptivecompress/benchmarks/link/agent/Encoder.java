package org.adaptivecompress.benchmarks.link.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Paths;
import java.util.List;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * How the sender gets one contender's bytes into the socket. Made before the clock starts (a
 * native codec's process is started then), run with the clock running, and aborted from another
 * thread when the transfer passes its deadline.
 */
abstract class Encoder {

    /** The plain copy notes the time at each multiple of this many bytes written: a default block. */
    static final int SAMPLE_BYTES = 128 << 10;

    /**
     * What a transfer reports besides its time and wire bytes.
     *
     * @param writes the time at each multiple of {@value SAMPLE_BYTES} bytes written, the plain copy's; empty for others
     * @param rungs rung changes of our streams, empty for others
     * @param blocks blocks stored per rung of our streams, empty for others
     * @param cpuNanos CPU time our streams' threads spent compressing; 0 for the plain copy, -1
     *     where unknown (a native tool)
     */
    record Outcome(long[] writes, List<RungTimeline.Point> rungs, long[] blocks, long cpuNanos) {
        static final Outcome NONE = new Outcome(new long[0], List.of(), new long[0], -1);
    }

    /** The encoder for {@code contender}. */
    static Encoder forContender(Contender contender) throws IOException {
        return switch (contender.kind()) {
            case PLAIN -> new Plain();
            case FIXED, ADAPTIVE -> new Framed(contender);
            case NATIVE -> new Native(contender);
        };
    }

    /**
     * Sends all of {@code input} through {@code wire}, the counted socket stream, and closes it.
     *
     * @param startNanos when the clock started, for rung timelines
     */
    abstract Outcome send(LinkInput input, CountingOutputStream wire, long startNanos) throws IOException;

    /** Stops whatever runs besides the socket (the socket itself is closed by the caller). */
    void abort() {}

    /**
     * Bytes as they are, in {@value LinkInput#WRITE_SIZE}-byte writes. It notes the time at each
     * {@value SAMPLE_BYTES} bytes written: set against the receiver's times for the same counts,
     * they show how far the writer ran ahead of the reader, the bytes the kernel held.
     */
    static final class Plain extends Encoder {
        @Override
        Outcome send(LinkInput input, CountingOutputStream wire, long startNanos) throws IOException {
            long[] writes = new long[(int) (input.length() / SAMPLE_BYTES)];
            int next = 0;
            long sent = 0;
            try (wire) {
                while (sent < input.length()) {
                    int offset = (int) (sent % input.block().length);
                    int n = (int) Math.min(Math.min(LinkInput.WRITE_SIZE, input.block().length - offset),
                            input.length() - sent);
                    wire.write(input.block(), offset, n);
                    sent += n;
                    while (next < writes.length && sent >= (next + 1L) * SAMPLE_BYTES) {
                        writes[next++] = System.nanoTime();
                    }
                }
            }
            return new Outcome(writes, List.of(), new long[0], 0);
        }
    }

    /** Our stream over the default ladder with the contender's controller. */
    static final class Framed extends Encoder {
        private final Contender contender;

        Framed(Contender contender) {
            this.contender = contender;
        }

        @Override
        Outcome send(LinkInput input, CountingOutputStream wire, long startNanos) throws IOException {
            RungTimeline timeline = new RungTimeline(startNanos);
            String traceDir = System.getProperty(DecisionTrace.DIRECTORY_PROPERTY);
            DecisionTrace trace = traceDir == null ? null : new DecisionTrace(startNanos);
            AdaptiveOutputStream.Builder builder = AdaptiveOutputStream.builder().ladder(Ladder.defaultLadder())
                    .listener(trace == null ? timeline : (o, d) -> {
                        timeline.decided(o, d);
                        trace.decided(o, d);
                    });
            switch (contender.id()) {
                case Contender.DEFAULT -> builder.controller(LevelControllers.defaultController());
                case Contender.HISTORY -> builder.controller(LevelControllers.defaultController()).history(true);
                case "parallel" -> builder.controller(LevelControllers.defaultController())
                        .maxWorkers(Runtime.getRuntime().availableProcessors());
                default -> builder.controller(LevelControllers.byName(contender.controllerName()));
            }
            if (contender.maxBlockSize() > 0) {
                builder.blockSize(Math.min(contender.maxBlockSize(), AdaptiveCompressionOptions.DEFAULT_BLOCK_SIZE))
                        .maxBlockSize(contender.maxBlockSize());
            }
            builder.objective(contender.objective().toString());
            AdaptiveOutputStream out = builder.build(wire);
            try (out) {
                timeline.start(out.statistics().currentRung());
                input.writeTo(out);
            }
            if (trace != null) {
                trace.writeTo(Paths.get(traceDir, contender.id().replace(':', '-') + "-" + startNanos + ".csv"));
            }
            CompressionStatistics stats = out.statistics();
            long[] blocks = new long[stats.ladder().size()];
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = stats.blocks(i);
            }
            return new Outcome(new long[0], timeline.points(), blocks, stats.cpuNanos());
        }
    }

    /**
     * A command-line codec: a feeder thread writes the input to its standard input, and its
     * standard output is copied into the socket.
     */
    static final class Native extends Encoder {
        private final Contender contender;
        private final Process process;
        private volatile boolean aborted;

        Native(Contender contender) throws IOException {
            this.contender = contender;
            this.process = new ProcessBuilder(contender.command()).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        }

        @Override
        Outcome send(LinkInput input, CountingOutputStream wire, long startNanos) throws IOException {
            Thread feeder = new Thread(() -> {
                try (OutputStream stdin = process.getOutputStream()) {
                    input.writeTo(stdin);
                } catch (IOException e) {
                    process.destroyForcibly(); // the copy below then ends short and the receiver says so
                }
            }, contender.id() + "-feeder");
            feeder.setDaemon(true);
            feeder.start();
            boolean copied = false;
            try (wire; InputStream stdout = process.getInputStream()) {
                stdout.transferTo(wire);
                copied = true;
            } finally {
                if (!copied) {
                    process.destroyForcibly(); // the socket failed: the feeder's next write ends too
                }
                awaitQuietly(feeder);
            }
            int exit = waitFor();
            if (exit != 0 && !aborted) {
                throw new IOException(contender.label() + " exited with " + exit);
            }
            return Outcome.NONE;
        }

        @Override
        void abort() {
            aborted = true;
            process.destroyForcibly();
        }

        private int waitFor() throws IOException {
            try {
                return process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for " + contender.label(), e);
            }
        }

        private static void awaitQuietly(Thread thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
