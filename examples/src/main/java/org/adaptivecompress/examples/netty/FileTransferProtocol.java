package org.adaptivecompress.examples.netty;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The example's protocol, carried inside the adaptive stream in both directions. The client
 * sends {@code size} (8 bytes), {@code nameLength} (4 bytes), the name in UTF-8, then the file's
 * {@code size} bytes; the server replies with the byte count it wrote (8 bytes) and their
 * SHA-256 (32 bytes). Integers are big-endian, as {@code ByteBuf} writes them.
 */
final class FileTransferProtocol {

    /** Longest file name accepted, in bytes: a header claiming more is refused, not buffered. */
    static final int MAX_NAME_LENGTH = 1024;
    static final int DIGEST_LENGTH = 32;
    static final int REPLY_LENGTH = Long.BYTES + DIGEST_LENGTH;

    private FileTransferProtocol() {}

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The last element of {@code name}: a client cannot write outside the server's directory. */
    static Path safeFileName(String name) {
        Path fileName = Path.of(name).getFileName();
        if (fileName == null || fileName.toString().equals("..") || fileName.toString().equals(".")) {
            throw new IllegalArgumentException("not a file name: " + name);
        }
        return fileName;
    }
}
