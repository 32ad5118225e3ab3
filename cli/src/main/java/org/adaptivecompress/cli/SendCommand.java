package org.adaptivecompress.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.adaptivecompress.control.LevelControllers;
import org.adaptivecompress.control.Objective;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.format.BudgetFrame;
import org.adaptivecompress.internal.link.RateLimitedOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code send FILE HOST:PORT}: AdOC's use case, a file transfer whose compression adapts to the
 * link. The compressed stream goes to a {@code receive} at HOST:PORT, optionally through an
 * emulated link ({@code --rate 10mbit}); the command succeeds once the receiver confirms that
 * everything arrived and verified (see {@link TransferProtocol}).
 */
@Command(name = "send", mixinStandardHelpOptions = true,
        description = "Send a file to 'adaptive-compress receive', compressing as much as the link needs.")
final class SendCommand implements Callable<Integer> {

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    @ParentCommand
    AdaptiveCompressCli cli;

    @Spec
    CommandSpec spec;

    @Mixin
    CompressionMixin compression;

    @Parameters(index = "0", paramLabel = "FILE", description = "The file to send, or '-' for stdin.")
    String file;

    @Parameters(index = "1", paramLabel = "HOST:PORT", converter = HostPort.Converter.class,
            description = "Where 'adaptive-compress receive' listens.")
    HostPort target;

    @Option(names = "--rate", paramLabel = "RATE", converter = Converters.Rate.class,
            description = "Emulate a link this fast: 10mbit, 1gbit, 20MB (bytes/s), unlimited (default).")
    long rate = RateLimitedOutputStream.UNLIMITED;

    @Override
    public Integer call() throws Exception {
        Transcoder transcoder = new Transcoder(spec.commandLine().getErr(), cli.progress(), compression,
                LevelControllers.DEFAULT_NAME);
        Transcoder.Source source = Endpoints.input(file, cli.stdin());
        long start = System.nanoTime();
        Transcoder.Result result;
        ReceiverBudget budget;
        try (Socket socket = new Socket()) {
            connect(socket);
            budget = awaitBudget(socket);
            compression.within(budget);
            OutputStream wire = new RateLimitedOutputStream(new HalfClosing(socket), rate);
            result = transcoder.run("send " + source.name(), source, StreamFormat.PLAIN,
                    new Transcoder.Sink(target.toString(), wire, true), StreamFormat.ADC);
            awaitAck(socket);
        } catch (IOException e) {
            source.in().close();
            throw CliException.about(target.toString(), e);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT,
                "sent %s to %s: %,d bytes as %,d on the wire (%.2fx) in %.2f s (%s/s); blocks per rung %s;"
                        + " compression used %.2f cores%s; receiver accepts %s%n",
                source.name(), target, result.plainBytes(), result.bytesOut(), result.ratio(true), seconds,
                Progress.bytes((long) (result.plainBytes() / Math.max(seconds, 1e-3))),
                result.statistics().blocksByRung(), result.statistics().compressionCores(), costOf(result), budget);
        out.flush();
        return 0;
    }

    /** ", estimated cost X" under a cost objective, else nothing. */
    private String costOf(Transcoder.Result result) {
        Objective objective = compression.objective;
        return objective.kind() == Objective.Kind.COST
                ? String.format(Locale.ROOT, ", estimated cost %.4g", result.statistics().cost(objective)) : "";
    }

    private void connect(Socket socket) throws IOException {
        try {
            socket.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            throw new CliException("cannot connect to " + target + " (" + ErrorReporter.describe(e)
                    + "); is 'adaptive-compress receive --port " + target.port() + "' running there?", e);
        }
    }

    /** The receiver's first words: what it accepts, which this transfer stays inside. */
    private ReceiverBudget awaitBudget(Socket socket) throws IOException {
        socket.setSoTimeout(TransferProtocol.BUDGET_TIMEOUT_MILLIS);
        try {
            return BudgetFrame.read(socket.getInputStream());
        } catch (SocketTimeoutException e) {
            throw new CliException(target + " sent no receiver budget within " + TransferProtocol.BUDGET_TIMEOUT_MILLIS
                    + " ms; is it 'adaptive-compress receive' of this version?", e);
        } catch (FrameFormatException e) {
            throw new CliException(target + " did not answer with a receiver budget (" + e.getMessage()
                    + "); is it 'adaptive-compress receive' of this version?", e);
        } finally {
            socket.setSoTimeout(0);
        }
    }

    private void awaitAck(Socket socket) throws IOException {
        int answer = socket.getInputStream().read();
        if (answer != TransferProtocol.ACK) {
            throw new CliException("the receiver did not confirm the transfer; see its error message");
        }
    }

    /** The socket's output, whose close half-closes the socket so the receiver's answer can still arrive. */
    private static final class HalfClosing extends FilterOutputStream {
        private final Socket socket;

        HalfClosing(Socket socket) throws IOException {
            super(socket.getOutputStream());
            this.socket = socket;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
            socket.shutdownOutput();
        }
    }
}
