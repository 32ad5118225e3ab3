package org.adaptivecompress.internal.codec;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.DataFormatException;
import org.adaptivecompress.internal.codec.HistoryDecompressor;
import org.tukaani.xz.LZMA2InputStream;

/**
 * The {@link HistoryDecompressor} for {@link XzHistoryCompressor}'s blocks: one LZMA2 decoder
 * per stream, fed each block's payload in turn. Its dictionary is the size it was made for,
 * whatever the input says; a match reaching further back fails as corrupt input. A block that
 * starts a stream without a prime reuses the decoder of the stream before, whose first chunk must
 * then reset the dictionary (as the first chunk of any LZMA2 stream does), rather than allocate
 * a new 2 MiB dictionary: a stream of tiny blocks that each start a history costs no more than
 * its bytes. A primed start needs a decoder loaded with the prime; the format's prime budget
 * bounds how often that happens.
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
    /** Kept between streams for reuse; null before the first and after a block that failed. */
    private LZMA2InputStream decoder;
    /** Whether the decoder's stream is open, so that the next block may continue it. */
    private boolean open;

    XzHistoryDecompressor(int maxWindowLog) {
        this.dictionarySize = 1 << maxWindowLog;
    }

    @Override
    public void decompress(boolean continuesFrame, Prime prime, byte[] src, int srcOffset, int srcLength,
            byte[] dst, int dstOffset, int uncompressedLength) throws DataFormatException {
        if (!continuesFrame) {
            if (prime != null && prime.length() > 0) {
                decoder = new LZMA2InputStream(payload, dictionarySize, prime.toArray()); // it copies the array
            } else if (decoder == null) {
                decoder = new LZMA2InputStream(payload, dictionarySize);
            } else if (srcLength == 0 || !resetsDictionary(src[srcOffset])) {
                throw new DataFormatException("xz block starts a history stream without resetting the dictionary");
            }
        } else if (!open) {
            throw new DataFormatException("xz block continues a history stream that no earlier block opened");
        }
        open = false;
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
        open = true;
    }

    /**
     * Whether an LZMA2 chunk with this control byte resets the dictionary: an uncompressed
     * chunk with reset (0x01), or an LZMA chunk with reset and new properties (0xE0-0xFF).
     */
    private static boolean resetsDictionary(byte control) {
        int c = control & 0xFF;
        return c == 0x01 || c >= 0xE0;
    }

    @Override
    public void dropFrame() {
        open = false;
    }

    @Override
    public void close() {
        open = false;
        decoder = null;
    }
}
