package org.adaptivecompress.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.function.BooleanSupplier;

/** Helpers for driving {@link EmbeddedChannel}s whose handlers finish work on other threads. */
final class Channels {

    private Channels() {}

    /**
     * Runs the channel's pending tasks until {@code done}; a guard of one minute turns a hang
     * into a failure (a bound, not a speed assertion).
     */
    static void runUntil(EmbeddedChannel channel, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            channel.runPendingTasks();
            if (done.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within the one-minute guard");
            }
            Thread.sleep(1);
        }
    }

    /** Reads and releases every outbound ByteBuf, returning their bytes. */
    static byte[] drainOutbound(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o = channel.readOutbound(); o != null; o = channel.readOutbound()) {
            appendAndRelease(out, (ByteBuf) o);
        }
        return out.toByteArray();
    }

    /** Reads and releases every inbound ByteBuf, returning their bytes. */
    static byte[] drainInbound(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o = channel.readInbound(); o != null; o = channel.readInbound()) {
            appendAndRelease(out, (ByteBuf) o);
        }
        return out.toByteArray();
    }

    static void appendAndRelease(ByteArrayOutputStream out, ByteBuf buf) {
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            out.write(bytes, 0, bytes.length);
        } finally {
            buf.release();
        }
    }
}
