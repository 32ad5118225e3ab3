package org.adaptivecompress.kafka;

import com.github.luben.zstd.Zstd;
import org.adaptivecompress.codec.CodecType;

/**
 * The compact per-record frame (specified in {@code docs/kafka.md}):
 *
 * <pre>
 * byte 0      magic 0xAC
 * byte 1      flags: bits 0-3 codec id (CodecType ids), bit 4 dictionary id follows, bits 5-7 zero
 * varint      uncompressed length (unsigned LEB128, 1 to 5 bytes)
 * [4 bytes]   zstd dictionary id, big-endian, only if bit 4 is set
 * payload     the value, stored as the codec says; runs to the end of the record
 * </pre>
 *
 * <p>No checksum: every Kafka record batch already carries a CRC32C of its records. The length
 * is there for raw payloads too so that truncation is always detected.
 */
final class RecordFrame {

    static final int MAGIC = 0xAC;
    static final int CODEC_MASK = 0x0F;
    static final int FLAG_DICTIONARY = 0x10;
    static final int RESERVED_MASK = 0xE0;
    static final int DICTIONARY_ID_LENGTH = 4;
    /** Most bytes an LZMA2 payload decodes to per payload byte: twice what LZMA can reach. */
    static final long LZMA_MAX_EXPANSION = 16_384;
    /** Magic, flags, the longest varint and a dictionary id. */
    static final int MAX_HEADER_LENGTH = 2 + 5 + DICTIONARY_ID_LENGTH;

    private RecordFrame() {}

    /** Length of the header for a value of {@code length} bytes. */
    static int headerLength(int length, boolean dictionary) {
        return 2 + varintLength(length) + (dictionary ? DICTIONARY_ID_LENGTH : 0);
    }

    static int varintLength(int value) {
        int n = 1;
        while ((value >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    /** Writes the header at {@code dst[0]}; returns its length. */
    static int writeHeader(byte[] dst, CodecType codec, int uncompressedLength, Integer dictionaryId) {
        dst[0] = (byte) MAGIC;
        dst[1] = (byte) (codec.id() | (dictionaryId != null ? FLAG_DICTIONARY : 0));
        int pos = 2;
        int v = uncompressedLength;
        while ((v & ~0x7F) != 0) {
            dst[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        dst[pos++] = (byte) v;
        if (dictionaryId != null) {
            int id = dictionaryId;
            dst[pos++] = (byte) (id >>> 24);
            dst[pos++] = (byte) (id >>> 16);
            dst[pos++] = (byte) (id >>> 8);
            dst[pos++] = (byte) id;
        }
        return pos;
    }

    /**
     * Parses and checks the header of {@code value}, the payload's bounds included, before any
     * allocation.
     *
     * @throws AdaptiveFrameException (a subclass saying which) if the header is not valid
     */
    static Header parse(String topic, byte[] value, int maxValueBytes) {
        if (value.length < 3) {
            if (value.length >= 1 && (value[0] & 0xFF) != MAGIC) {
                throw unframed(topic, value);
            }
            throw new TruncatedFrameException(where(topic) + "value of " + value.length
                    + " bytes is shorter than the smallest frame (3 bytes)");
        }
        if ((value[0] & 0xFF) != MAGIC) {
            throw unframed(topic, value);
        }
        int flags = value[1] & 0xFF;
        if ((flags & RESERVED_MASK) != 0) {
            throw new AdaptiveFrameException(where(topic) + String.format(
                    "frame flags 0x%02x set reserved bits 5-7 (written by a newer serializer, or corrupt)", flags));
        }
        CodecType codec = CodecType.fromId(flags & CODEC_MASK);
        if (codec == null) {
            throw new AdaptiveFrameException(where(topic) + "unknown codec id " + (flags & CODEC_MASK) + " in frame");
        }
        boolean dictionary = (flags & FLAG_DICTIONARY) != 0;
        if (dictionary && codec != CodecType.ZSTD) {
            throw new AdaptiveFrameException(where(topic) + "dictionary flag set on a " + codec.specName()
                    + " frame; only zstd frames use dictionaries");
        }
        long length = 0;
        int pos = 2;
        for (int shift = 0;; shift += 7) {
            if (pos >= value.length) {
                throw new TruncatedFrameException(where(topic) + "value ends inside the frame's length field");
            }
            if (shift > 28) {
                throw new AdaptiveFrameException(where(topic) + "frame length field is longer than 5 bytes");
            }
            int b = value[pos++] & 0xFF;
            length |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
        }
        if (length > maxValueBytes) {
            throw new OversizedValueException(where(topic) + "frame declares " + length
                    + " uncompressed bytes, above adaptive.max.value.bytes=" + maxValueBytes);
        }
        int dictionaryId = 0;
        if (dictionary) {
            if (pos + DICTIONARY_ID_LENGTH > value.length) {
                throw new TruncatedFrameException(where(topic) + "value ends inside the frame's dictionary id");
            }
            dictionaryId = ((value[pos] & 0xFF) << 24) | ((value[pos + 1] & 0xFF) << 16)
                    | ((value[pos + 2] & 0xFF) << 8) | (value[pos + 3] & 0xFF);
            pos += DICTIONARY_ID_LENGTH;
        }
        int stored = value.length - pos;
        if (codec == CodecType.RAW && stored != length) {
            if (stored < length) {
                throw new TruncatedFrameException(where(topic) + "raw frame declares " + length
                        + " bytes but only " + stored + " follow the header");
            }
            throw new AdaptiveFrameException(where(topic) + "raw frame declares " + length + " bytes but "
                    + stored + " follow the header");
        }
        if (codec != CodecType.RAW && stored == 0 && length > 0) {
            throw new TruncatedFrameException(where(topic) + codec.specName() + " frame of " + length
                    + " bytes has no payload");
        }
        long most = maxDecodedLength(codec, stored);
        if (length > most) {
            throw new AdaptiveFrameException(where(topic) + codec.specName() + " frame declares " + length
                    + " bytes, but a " + stored + "-byte " + codec.specName() + " payload decodes to at most " + most
                    + ": corrupt or truncated");
        }
        if (codec == CodecType.ZSTD && !dictionary && stored > 0) {
            checkZstdContentSize(topic, value, pos, stored, length);
        }
        return new Header(codec, (int) length, dictionary, dictionaryId, pos);
    }

    /**
     * The most bytes a well-formed payload of {@code stored} bytes can decode to, from each
     * format's largest expansion, so that a short corrupt value cannot make the reader allocate
     * up to {@code adaptive.max.value.bytes}. An LZ4 sequence yields at most 255 bytes per byte
     * (each match-length byte adds at most 255); deflate at most 1032 (a 258-byte match coded in
     * 2 bits); a zstd block takes at least 4 bytes (3 of header) and yields at most 128 KiB. LZMA
     * codes a 273-byte match, its longest, in at least 14 binary decisions of at least 1/45 bit
     * each (11-bit probabilities saturate at 2017/2048): about 7,000 bytes per payload byte, which
     * xz approaches on runs of one byte (a test decodes 16 MiB of zeros at xz:0 and xz:9). The
     * bound is {@value #LZMA_MAX_EXPANSION}x, and the xz decoder allocates its output and a
     * dictionary as large, so no more than that.
     */
    static long maxDecodedLength(CodecType codec, int stored) {
        switch (codec) {
            case RAW:
                return stored;
            case LZ4:
                return 255L * stored;
            case DEFLATE:
                return 1032L * stored;
            case ZSTD:
                return (stored / 4) * (128L << 10);
            case XZ:
                return LZMA_MAX_EXPANSION * stored;
            default:
                return Long.MAX_VALUE;
        }
    }

    /**
     * A zstd frame written without a dictionary records its content size (core's zstd codec sets
     * it), which must match the declared length; reading it touches only the frame header.
     */
    private static void checkZstdContentSize(String topic, byte[] value, int offset, int stored, long length) {
        long contentSize = Zstd.getFrameContentSize(value, offset, stored);
        // negative: not recorded, or a damaged frame header that decoding will report
        if (contentSize >= 0 && contentSize != length) {
            throw new AdaptiveFrameException(where(topic) + "zstd frame declares " + length
                    + " bytes, but its payload's frame header records a content size of " + contentSize
                    + ": corrupt");
        }
    }

    static String where(String topic) {
        return "topic " + topic + ": ";
    }

    private static UnframedValueException unframed(String topic, byte[] value) {
        return new UnframedValueException(where(topic) + String.format("value starts with 0x%02x, not the adaptive frame "
                + "magic 0xac: it was not written by AdaptiveSerializer (set adaptive.legacy.passthrough=true "
                + "to read such values unchanged)", value[0] & 0xFF));
    }

    /** A parsed frame header. */
    static final class Header {
        final CodecType codec;
        final int uncompressedLength;
        final boolean dictionary;
        final int dictionaryId;
        final int payloadOffset;

        Header(CodecType codec, int uncompressedLength, boolean dictionary, int dictionaryId, int payloadOffset) {
            this.codec = codec;
            this.uncompressedLength = uncompressedLength;
            this.dictionary = dictionary;
            this.dictionaryId = dictionaryId;
            this.payloadOffset = payloadOffset;
        }
    }
}
