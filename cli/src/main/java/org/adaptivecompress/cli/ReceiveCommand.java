package org.adaptivecompress.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.internal.format.BudgetFrame;
import org.adaptivecompress.internal.format.FrameFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code receive --port P --output FILE}: accepts one {@code send}, decodes and verifies the
 * stream into FILE, and confirms to the sender (see {@link TransferProtocol}). Listens on
 * 127.0.0.1 unless {@code --bind} says otherwise, so trying it exposes nothing to the network.
 */
@Command(name = "receive", mixinStandardHelpOptions = true,
        description = "Receive one file from 'adaptive-compress send'.")
final class ReceiveCommand implements Callable<Integer> {

    @ParentCommand
    AdaptiveCompressCli cli;

    @Spec
    CommandSpec spec;

    @Option(names = {"-p", "--port"}, required = true, paramLabel = "PORT", converter = Ports.class,
            description = "TCP port to listen on (0: any free port, printed on stderr).")
    int port;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
            description = "Where to write the received file, or '-' for stdout.")
    String output;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    String bind;

    @Option(names = {"-f", "--force"}, description = "Overwrite FILE if it exists.")
    boolean force;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "Give up if no sender connects, or the sender goes silent, this long (default: never).")
    int timeoutSeconds;

    @Option(names = "--accept", paramLabel = "BUDGET", converter = Converters.Budget.class,
            description = "What this receiver decodes, told to the sender, which stays inside it: codecs with "
                    + "their top levels, window=SIZE (0: no histories), block=SIZE and memory=SIZE, e.g. "
                    + "lz4,zstd:9,window=2m (default: any codec and level, 8 MiB windows, 64 MiB blocks).")
    ReceiverBudget accept = ReceiverBudget.defaults().withMaxBlockLength(FrameFormat.MAX_BLOCK_LENGTH_LIMIT);

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        boolean toStdout = Endpoints.STDIO.equals(output);
        Path target = toStdout ? null : Path.of(output);
        Transcoder transcoder = new Transcoder(err, cli.progress()).accepting(accept);
        Transcoder.Sink sink = toStdout ? Endpoints.stdout(cli.stdout())
                : Endpoints.output(target, force, Endpoints.STDIO);
        Transcoder.Result result;
        String peer;
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(bind), port), 1);
            server.setSoTimeout(timeoutMillis());
            err.println("listening on " + new HostPort(bind, server.getLocalPort()));
            err.flush();
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(timeoutMillis());
                peer = socket.getRemoteSocketAddress().toString();
                socket.getOutputStream().write(BudgetFrame.encode(accept));
                // Closing a socket's input closes the socket: keep it open for the answer.
                InputStream in = new FilterInputStream(socket.getInputStream()) {
                    @Override
                    public void close() {
                        // the socket is closed below, after the answer
                    }
                };
                result = transcoder.run("receive", new Transcoder.Source(peer, in, -1),
                        StreamFormat.ADC, sink, StreamFormat.PLAIN);
                socket.getOutputStream().write(TransferProtocol.ACK);
            }
        } catch (IOException | RuntimeException e) {
            sink.out().close();
            if (target != null) {
                Endpoints.deletePartial(target, e);
            }
            throw e instanceof IOException ? CliException.about("receive", (IOException) e) : e;
        }
        PrintWriter out = toStdout ? err : spec.commandLine().getOut();
        out.printf(Locale.ROOT, "received %,d bytes (%,d on the wire, %.2fx) from %s => %s%n", result.plainBytes(),
                result.bytesIn(), result.ratio(false), peer, toStdout ? "stdout" : output);
        out.flush();
        return 0;
    }

    private int timeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(Math.max(0, timeoutSeconds)));
    }
}
