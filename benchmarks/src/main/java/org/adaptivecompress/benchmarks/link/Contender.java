package org.adaptivecompress.benchmarks.link;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.stream.AdaptiveInputStream;
import org.adaptivecompress.stream.AdaptiveOutputStream;

/**
 * One way of getting the input across the link: a sender that writes it into the emulated link
 * and a decoder the receiver reads it back through.
 */
public interface Contender {

    /** The name in the tables, e.g. {@code raw}, {@code fixed:3 zstd:3}, {@code adoc}. */
    String name();

    /** True for the contenders whose rung the benchmark compares against the best fixed one. */
    boolean adaptive();

    /** True for a fixed rung of the ladder (raw counts as one: it is what no compression costs). */
    boolean fixed();

    /**
     * Writes all of {@code input} into {@code link} and closes it.
     *
     * @param timeline told each rung change, for adaptive contenders
     */
    void send(LinkInput input, OutputStream link, RungTimeline timeline) throws IOException, InterruptedException;

    /** Wraps the receiving socket's stream in this contender's decoder. */
    InputStream decoder(InputStream in) throws IOException;

    /**
     * Every contender: raw, each fixed rung of the default ladder, adoc, the throughput
     * controller, the default controller, the default controller with up to one worker per core
     * ({@code parallel}), zstd --adapt.
     */
    static List<Contender> all() {
        List<Contender> all = new ArrayList<>();
        all.add(new RawContender());
        Ladder ladder = Ladder.defaultLadder();
        for (int i = 0; i < ladder.size(); i++) {
            all.add(new Framed("fixed:" + i + " " + ladder.rung(i), false, LevelControllers.byName("fixed:" + i)));
        }
        all.add(new Framed("adoc", true, LevelControllers.byName("adoc")));
        all.add(new Framed("throughput", true, LevelControllers.byName("throughput")));
        all.add(new Framed("default", true, LevelControllers.defaultController()));
        all.add(new Framed("parallel", true, LevelControllers.defaultController(),
                Runtime.getRuntime().availableProcessors()));
        all.add(new ZstdAdaptContender());
        return all;
    }

    /**
     * Contenders with histories on, run only when named: {@code history} (the default
     * controller) and {@code fixed:N rung +history} for each zstd and xz rung of the default
     * ladder.
     * Neither counts as a fixed choice, so the tables stay comparable with runs without them.
     */
    static List<Contender> withHistory() {
        List<Contender> all = new ArrayList<>();
        all.add(new Framed("history", false, LevelControllers.defaultController(), 1, true));
        Ladder ladder = Ladder.defaultLadder();
        for (int i = 0; i < ladder.size(); i++) {
            if (ladder.rung(i).codec().hasHistory()) {
                all.add(new Framed("fixed:" + i + " " + ladder.rung(i) + " +history", false,
                        LevelControllers.byName("fixed:" + i), 1, true));
            }
        }
        return all;
    }

    /** Bytes as they are, no framing: what the link costs without compression. */
    final class RawContender implements Contender {
        @Override
        public String name() {
            return "raw";
        }

        @Override
        public boolean adaptive() {
            return false;
        }

        @Override
        public boolean fixed() {
            return true;
        }

        @Override
        public void send(LinkInput input, OutputStream link, RungTimeline timeline) throws IOException {
            try (link) {
                input.writeTo(link);
            }
        }

        @Override
        public InputStream decoder(InputStream in) {
            return in;
        }
    }

    /** An {@link AdaptiveOutputStream} over the default ladder with one controller. */
    final class Framed implements Contender {
        private final String name;
        private final boolean adaptive;
        private final Supplier<LevelController> controller;
        private final int maxWorkers;
        private final boolean history;

        Framed(String name, boolean adaptive, Supplier<LevelController> controller) {
            this(name, adaptive, controller, 1);
        }

        Framed(String name, boolean adaptive, Supplier<LevelController> controller, int maxWorkers) {
            this(name, adaptive, controller, maxWorkers, false);
        }

        Framed(String name, boolean adaptive, Supplier<LevelController> controller, int maxWorkers,
                boolean history) {
            this.name = name;
            this.adaptive = adaptive;
            this.controller = controller;
            this.maxWorkers = maxWorkers;
            this.history = history;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean adaptive() {
            return adaptive;
        }

        @Override
        public boolean fixed() {
            return !adaptive && !history;
        }

        @Override
        public void send(LinkInput input, OutputStream link, RungTimeline timeline) throws IOException {
            try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder(Ladder.defaultLadder())
                    .controller(controller).maxWorkers(maxWorkers).history(history).listener(timeline)
                    .build(link)) {
                timeline.start(out.statistics().currentRung());
                input.writeTo(out);
            }
        }

        @Override
        public InputStream decoder(InputStream in) {
            return AdaptiveInputStream.builder().build(in);
        }
    }

    /** Native {@code zstd --adapt} in a child process, its output piped through the link. */
    final class ZstdAdaptContender implements Contender {
        @Override
        public String name() {
            return "zstd --adapt";
        }

        @Override
        public boolean adaptive() {
            return false;
        }

        @Override
        public boolean fixed() {
            return false;
        }

        @Override
        public void send(LinkInput input, OutputStream link, RungTimeline timeline) throws IOException, InterruptedException {
            Process zstd = new ProcessBuilder("zstd", "--adapt", "-q", "-c")
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            Thread feeder = new Thread(() -> {
                try (OutputStream stdin = zstd.getOutputStream()) {
                    input.writeTo(stdin);
                } catch (IOException e) {
                    zstd.destroy(); // the copy below then ends and the receiver reports the short stream
                }
            }, "zstd-feeder");
            feeder.setDaemon(true);
            feeder.start();
            try (link; InputStream stdout = zstd.getInputStream()) {
                stdout.transferTo(link);
            } finally {
                feeder.join();
                int exit = zstd.waitFor();
                if (exit != 0) {
                    throw new IOException("zstd --adapt exited with " + exit);
                }
            }
        }

        @Override
        public InputStream decoder(InputStream in) throws IOException {
            return new ZstdInputStream(in);
        }

        /** Whether a {@code zstd} binary answers on the PATH. */
        static boolean installed() {
            try {
                Process p = new ProcessBuilder("zstd", "--version").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                return p.waitFor() == 0;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
