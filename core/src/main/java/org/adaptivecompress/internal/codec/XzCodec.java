package org.adaptivecompress.internal.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.DataFormatException;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.tukaani.xz.ArrayCache;
import org.tukaani.xz.BasicArrayCache;
import org.tukaani.xz.FinishableOutputStream;
import org.tukaani.xz.FinishableWrapperOutputStream;
import org.tukaani.xz.LZMA2InputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.UnsupportedOptionsException;

/**
 * Raw LZMA2 (the codec inside {@code .xz}) at presets 0-9.
 *
 * <p>Blocks carry no {@code .xz} container: the dictionary never needs to exceed the block, so
 * the encoder shrinks the preset's dictionary to the block length and the decoder sizes its
 * dictionary from the block's declared uncompressed length. The encoder keeps its large arrays
 * in an {@link ArrayCache} so that consecutive blocks reuse them.
 */
final class XzCodec {

    static final int MIN_PRESET = LZMA2Options.PRESET_MIN;
    static final int MAX_PRESET = LZMA2Options.PRESET_MAX;

    private XzCodec() {}

    static BlockCompressor compressor(int preset) {
        return new Compressor(preset);
    }

    static BlockDecompressor decompressor() {
        return new Decompressor();
    }

    static int dictionarySizeFor(int length, int presetDictionarySize) {
        return Math.max(LZMA2Options.DICT_SIZE_MIN, Math.min(presetDictionarySize, length));
    }

    private static final class Compressor implements BlockCompressor {
        private final LZMA2Options options;
        private final int presetDictionarySize;
        private final ArrayCache cache = new BasicArrayCache();
        private final BoundedArrayOutputStream sink = new BoundedArrayOutputStream();

        Compressor(int preset) {
            try {
                options = new LZMA2Options(preset);
            } catch (UnsupportedOptionsException e) {
                throw new IllegalArgumentException("xz preset out of range: " + preset, e);
            }
            presetDictionarySize = options.getDictSize();
        }

        @Override
        public int compress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
            sink.reset(dst, dstOffset, dstLength);
            try {
                options.setDictSize(dictionarySizeFor(srcLength, presetDictionarySize));
                FinishableOutputStream out = options.getOutputStream(new FinishableWrapperOutputStream(sink), cache);
                out.write(src, srcOffset, srcLength);
                out.finish();
                return sink.written();
            } catch (BoundedArrayOutputStream.Full full) {
                return DOES_NOT_FIT;
            } catch (IOException e) {
                // The sink is an array: the only IOException it raises is Full, handled above.
                throw new IllegalStateException("LZMA2 encoder failed on an in-memory block", e);
            }
        }

        @Override
        public void close() {
            // arrays are garbage-collected with the cache
        }
    }

    /**
     * xz-java keeps the array-cache constructor of LZMA2InputStream private, so decoding
     * allocates a dictionary per block; it is never larger than the block, and LZMA2 decoding
     * is slow enough that the allocation does not show.
     */
    private static final class Decompressor implements BlockDecompressor {
        @Override
        public void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset,
                int uncompressedLength) throws DataFormatException {
            int dictionarySize = dictionarySizeFor(uncompressedLength, Integer.MAX_VALUE);
            try (LZMA2InputStream in = new LZMA2InputStream(
                    new ByteArrayInputStream(src, srcOffset, srcLength), dictionarySize)) {
                int total = 0;
                while (total < uncompressedLength) {
                    int n = in.read(dst, dstOffset + total, uncompressedLength - total);
                    if (n < 0) {
                        throw CodecErrors.wrongLength("xz", total, uncompressedLength);
                    }
                    total += n;
                }
                if (in.read() != -1) {
                    throw CodecErrors.longer("xz", uncompressedLength);
                }
            } catch (IOException e) {
                throw CodecErrors.malformed("xz", e);
            }
        }

        @Override
        public void close() {
            // arrays are garbage-collected with the cache
        }
    }

    /** An OutputStream over a fixed array slice that refuses to grow past it. */
    static final class BoundedArrayOutputStream extends OutputStream {
        /** Thrown when the block would not shrink enough to be worth keeping. */
        static final class Full extends IOException {
            private static final long serialVersionUID = 1L;

            Full() {
                super("destination full", null);
            }

            @Override
            public synchronized Throwable fillInStackTrace() {
                return this; // control flow, not an error: no stack to capture
            }
        }

        private byte[] buffer;
        private int start;
        private int position;
        private int limit;

        void reset(byte[] buffer, int offset, int length) {
            this.buffer = buffer;
            this.start = offset;
            this.position = offset;
            this.limit = offset + length;
        }

        int written() {
            return position - start;
        }

        @Override
        public void write(int b) throws IOException {
            if (position >= limit) {
                throw new Full();
            }
            buffer[position++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > limit - position) {
                throw new Full();
            }
            System.arraycopy(b, off, buffer, position, len);
            position += len;
        }
    }
}
