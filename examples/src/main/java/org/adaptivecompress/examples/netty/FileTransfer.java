package org.adaptivecompress.examples.netty;

import java.util.HexFormat;
import org.adaptivecompress.engine.CompressionStatistics;

/**
 * The outcome of one {@link NettyFileClient#send send}: the bytes sent, the time from connecting
 * to the server's reply, the SHA-256 both ends computed (they are equal, or {@code send} throws)
 * and the client encoder's statistics (blocks per rung, bytes in and out).
 */
public record FileTransfer(long bytes, long nanos, byte[] sha256, CompressionStatistics statistics) {

    /** The SHA-256 of the file (a copy: the record stays immutable). */
    @Override
    public byte[] sha256() {
        return sha256.clone();
    }

    /** The SHA-256 as hex. */
    public String sha256Hex() {
        return HexFormat.of().formatHex(sha256);
    }

    /** The client's count and digest of what it sent, and the server's of what it wrote. */
    record Reply(long sent, byte[] sentDigest, long written, byte[] writtenDigest) {}
}
