package org.adaptivecompress.codec;


/**
 * The codecs a block can be stored with, each with the id it carries on the wire.
 *
 * <p>Ids are part of the frame format (see {@code docs/FORMAT.md}) and never change meaning.
 * A decoder needs only the id: levels matter to the encoder alone.
 */
public enum CodecType {
    /** Stored as is. */
    RAW(0, "raw"),
    /** LZ4 block format; the fast compressor and LZ4 HC produce the same format. */
    LZ4(1, "lz4"),
    /** A Zstandard frame holding the block, or the block's part of a history's frame. */
    ZSTD(2, "zstd"),
    /**
     * A raw LZMA2 stream (the codec inside {@code .xz}) with a dictionary no larger than the
     * block, or the block's chunks of a history's stream.
     */
    XZ(3, "xz"),
    /** Raw deflate, RFC 1951. */
    DEFLATE(4, "deflate");

    private static final CodecType[] BY_ID = values();

    private final int id;
    private final String specName;

    CodecType(int id, String specName) {
        this.id = id;
        this.specName = specName;
    }

    /** The codec's id byte in the frame format. */
    public int id() {
        return id;
    }

    /** The name used in ladder spec strings. */
    public String specName() {
        return specName;
    }

    /** The codec with this wire id, or {@code null} if the id is not assigned. */
    public static CodecType fromId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /** True for the codecs whose blocks may belong to a history (zstd and xz). */
    public boolean hasHistory() {
        return this == ZSTD || this == XZ;
    }
}
