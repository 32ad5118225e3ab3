package org.adaptivecompress.examples.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;

/**
 * The server's end of one transfer: reads the header, writes the file's bytes to the server's
 * directory as they arrive, then replies with their count and SHA-256. Sits after the adaptive
 * decoder, so it sees the decompressed bytes.
 *
 * <p>It writes to the disk on the event loop: an example serving one transfer at a time can
 * afford it, a server with many clients would hand the writes to another executor.
 */
final class FileReceiver extends ByteToMessageDecoder {

    private final Path directory;
    private final byte[] chunk = new byte[64 * 1024];
    private final MessageDigest digest = FileTransferProtocol.newDigest();
    private Path target;
    private OutputStream out;
    private long remaining = -1;
    private long size;
    private boolean failed;

    FileReceiver(Path directory) {
        this.directory = directory;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> unused) throws IOException {
        if (failed) {
            // the channel is closing: what was already read must not be taken for a new header
            in.skipBytes(in.readableBytes());
            return;
        }
        if (remaining < 0 && !readHeader(in)) {
            return;
        }
        if (out == null) {
            if (in.isReadable()) {
                throw new CorruptedFrameException("bytes after the end of the file");
            }
            return;
        }
        while (remaining > 0 && in.isReadable()) {
            int n = (int) Math.min(Math.min(remaining, in.readableBytes()), chunk.length);
            in.readBytes(chunk, 0, n);
            digest.update(chunk, 0, n);
            out.write(chunk, 0, n);
            remaining -= n;
        }
        if (remaining == 0) {
            out.close();
            out = null;
            ByteBuf reply = ctx.alloc().buffer(FileTransferProtocol.REPLY_LENGTH);
            reply.writeLong(size).writeBytes(digest.digest());
            ctx.writeAndFlush(reply);
        }
    }

    /** Reads the header once all of it has arrived; returns whether it has. */
    private boolean readHeader(ByteBuf in) throws IOException {
        if (in.readableBytes() < Long.BYTES + Integer.BYTES) {
            return false;
        }
        long declaredSize = in.getLong(in.readerIndex());
        int nameLength = in.getInt(in.readerIndex() + Long.BYTES);
        if (declaredSize < 0 || nameLength <= 0 || nameLength > FileTransferProtocol.MAX_NAME_LENGTH) {
            throw new CorruptedFrameException("bad header: size " + declaredSize + ", name length " + nameLength);
        }
        if (in.readableBytes() < Long.BYTES + Integer.BYTES + nameLength) {
            return false;
        }
        in.skipBytes(Long.BYTES + Integer.BYTES);
        String name = in.readCharSequence(nameLength, StandardCharsets.UTF_8).toString();
        target = directory.resolve(FileTransferProtocol.safeFileName(name));
        out = Files.newOutputStream(target);
        size = declaredSize;
        remaining = declaredSize;
        return true;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        discardIncompleteFile();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws IOException {
        if (failed) {
            return;
        }
        failed = true;
        System.err.println("file server: transfer failed: " + cause);
        discardIncompleteFile();
        ctx.close();
    }

    /** A file cut short is deleted rather than left looking complete. */
    private void discardIncompleteFile() throws IOException {
        if (out != null) {
            out.close();
            out = null;
            Files.deleteIfExists(target);
        }
    }
}
