package org.adaptivecompress.codec;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.DataFormatException;
import org.tukaani.xz.LZMA2InputStream;

/**
 * The {@link HistoryDecompressor} for {@link XzHistoryCompressor}'s blocks: one LZMA2 decoder
 * per stream, fed each block's payload in turn. Its dictionary is the size it was made for,
 * whatever the input says; a match reaching further back fails as corrupt input.
 */
final class XzHistoryDecompressor implements HistoryDecompressor {

    /** Hands the decoder the current block's payload and nothing more. */
    private static final class Payload extends InputStream {
        private byte[] buffer;
        private int position;
        private int limit;

        void set(byte[] buffer, int offset, int length) {
            this.buffer = buffer;
            this.position = offset;
            this.limit = offset + length;
        }

        int remaining() {
            return limit - position;
        }

        @Override
        public int read() {
            return position < limit ? buffer[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (position >= limit) {
                return -1;
            }
            int n = Math.min(len, limit - position);
            System.arraycopy(buffer, position, b, off, n);
            position += n;
            return n;
        }
    }

    private final int dictionarySize;
    private final Payload payload = new Payload();
    private LZMA2InputStream decoder;

    XzHistoryDecompressor(int maxWindowLog) {
        this.dictionarySize = 1 << maxWindowLog;
    }

    @Override
    public void decompress(boolean continuesFrame, byte[] prime, byte[] src, int srcOffset, int srcLength,
            byte[] dst, int dstOffset, int uncompressedLength) throws DataFormatException {
        if (!continuesFrame) {
            decoder = new LZMA2InputStream(payload, dictionarySize,
                    prime != null && prime.length > 0 ? prime : null);
        } else if (decoder == null) {
            throw new DataFormatException("xz block continues a history stream that no earlier block opened");
        }
        LZMA2InputStream in = decoder;
        decoder = null;
        payload.set(src, srcOffset, srcLength);
        int total = 0;
        try {
            while (total < uncompressedLength) {
                int n = in.read(dst, dstOffset + total, uncompressedLength - total);
                if (n < 0) {
                    throw CodecErrors.wrongLength("xz", total, uncompressedLength);
                }
                total += n;
            }
        } catch (IOException e) {
            throw CodecErrors.malformed("xz", e);
        }
        if (payload.remaining() != 0) {
            throw new DataFormatException("xz block decodes to " + uncompressedLength
                    + " bytes with " + payload.remaining() + " bytes of its payload left over");
        }
        decoder = in;
    }

    @Override
    public void dropFrame() {
        decoder = null;
    }

    @Override
    public void close() {
        decoder = null;
    }
}
