package org.adaptivecompress.internal.codec;

import java.nio.ByteBuffer;

/**
 * The bytes a primed history starts from: the stream's last ones, oldest first, as the reader's
 * tail holds them. A decompressor takes them the way its codec loads them best, so that a
 * stream priming as often as the format allows costs no array per prime where the codec can
 * do without one.
 */
public interface Prime {

    /** How many bytes. */
    int length();

    /** Copies the bytes, oldest first, into {@code dst} at its position, which it advances. */
    void copyTo(ByteBuffer dst);

    /**
     * The bytes in an array of exactly {@link #length()}, for codecs that load a whole array;
     * the array may be reused by the next call of the same length, so use it before then.
     */
    byte[] toArray();
}
