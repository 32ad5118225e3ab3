package org.adaptivecompress.internal.codec;

import java.util.zip.DataFormatException;

/** Builds the {@link DataFormatException}s that decompressors throw, keeping the codec's cause. */
final class CodecErrors {

    private CodecErrors() {}

    static DataFormatException malformed(String codec, Throwable cause) {
        DataFormatException e = new DataFormatException("malformed " + codec + " block: " + cause.getMessage());
        e.initCause(cause);
        return e;
    }

    static DataFormatException wrongLength(String codec, long decoded, int declared) {
        return new DataFormatException(
                codec + " block decodes to " + decoded + " bytes but its header declares " + declared);
    }

    /** The payload goes on decoding past the length its header declares. */
    static DataFormatException longer(String codec, int declared) {
        return new DataFormatException(
                codec + " block decodes to more than the " + declared + " bytes its header declares");
    }

    /** The compressed data ends before the payload does. */
    static DataFormatException trailing(String codec, int bytes) {
        return new DataFormatException(codec + " block's payload has " + bytes + " bytes after its compressed data");
    }
}
