package org.adaptivecompress.examples.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.List;

/**
 * The client's end of one transfer: once connected, sends the header and the file in chunks,
 * then reads the server's reply and completes {@code reply} with it. Sits after the adaptive
 * encoder, so what it writes is compressed.
 *
 * <p>At most {@link #WINDOW} chunks are unwritten at a time: the encoder completes a write's
 * promise only when its bytes have reached the socket, so the window bounds the memory a slow
 * link can pin, while leaving enough queued for the encoder's controller to see the link's pace.
 */
final class FileSender extends ByteToMessageDecoder {

    /** One chunk per encoder block (the core's default block size): a flush never cuts a block short. */
    static final int CHUNK = 128 * 1024;
    static final int WINDOW = 8;

    private final Path file;
    private final Promise<FileTransfer.Reply> reply;
    private final MessageDigest digest = FileTransferProtocol.newDigest();
    private FileChannel channel;
    private long size;
    private long position;
    private int unwritten;

    FileSender(Path file, Promise<FileTransfer.Reply> reply) {
        this.file = file;
        this.reply = reply;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        channel = FileChannel.open(file, StandardOpenOption.READ);
        size = channel.size();
        byte[] name = file.getFileName().toString().getBytes(StandardCharsets.UTF_8);
        ByteBuf header = ctx.alloc().buffer(Long.BYTES + Integer.BYTES + name.length);
        header.writeLong(size).writeInt(name.length).writeBytes(name);
        ctx.write(header).addListener(this::failOnError);
        sendMore(ctx);
        super.channelActive(ctx);
    }

    /** Reads and writes chunks until the window is full or the file is sent. */
    private void sendMore(ChannelHandlerContext ctx) throws IOException {
        boolean wrote = false;
        while (unwritten < WINDOW && position < size) {
            int length = (int) Math.min(CHUNK, size - position);
            ByteBuf chunk = ctx.alloc().heapBuffer(length);
            try {
                while (chunk.isWritable()) {
                    int n = chunk.writeBytes(channel, position, chunk.writableBytes());
                    if (n < 0) {
                        throw new IOException(file + " shrank while being sent");
                    }
                    position += n;
                }
            } catch (IOException | RuntimeException e) {
                chunk.release();
                throw e;
            }
            digest.update(chunk.nioBuffer());
            unwritten++;
            ctx.write(chunk).addListener((ChannelFuture f) -> {
                unwritten--;
                if (!f.isSuccess()) {
                    failOnError(f);
                } else if (ctx.channel().isActive()) {
                    sendMore(ctx);
                }
            });
            wrote = true;
        }
        if (wrote || position == size) {
            ctx.flush();
        }
        if (position == size) {
            channel.close();
        }
    }

    private void failOnError(io.netty.util.concurrent.Future<? super Void> f) {
        if (!f.isSuccess()) {
            reply.tryFailure(f.cause());
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> unused) {
        if (in.readableBytes() < FileTransferProtocol.REPLY_LENGTH) {
            return;
        }
        long written = in.readLong();
        byte[] serverDigest = new byte[FileTransferProtocol.DIGEST_LENGTH];
        in.readBytes(serverDigest);
        reply.trySuccess(new FileTransfer.Reply(size, digest.digest(), written, serverDigest));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closeFile();
        reply.tryFailure(new IOException("the server closed the connection before replying"));
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws IOException {
        closeFile();
        reply.tryFailure(cause);
        ctx.close();
    }

    private void closeFile() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
