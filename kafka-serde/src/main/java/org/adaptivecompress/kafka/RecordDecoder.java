package org.adaptivecompress.kafka;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.adaptivecompress.internal.codec.Codecs;

/**
 * One thread's decompression contexts for {@link AdaptiveDeserializer}: a core decompressor per
 * codec and a dictionary-bound zstd context per dictionary (at most {@code maxDictionaries}, the
 * least recently used closed first), each created on first use. Not thread-safe; pooled.
 */
final class RecordDecoder implements AutoCloseable {

    private final DictionaryResolver dictionaries;
    private final BlockDecompressor[] byCodec = new BlockDecompressor[CodecType.values().length];
    private final LruMap<Integer, ZstdDecompressCtx> byDictionary;

    RecordDecoder(DictionaryResolver dictionaries, int maxDictionaries) {
        this.dictionaries = dictionaries;
        this.byDictionary = new LruMap<>(maxDictionaries, ZstdDecompressCtx::close);
    }

    /** The value a frame holds, its header already parsed and checked. */
    byte[] decode(String topic, byte[] frame, RecordFrame.Header h) {
        int stored = frame.length - h.payloadOffset;
        byte[] out = new byte[h.uncompressedLength];
        if (h.codec == CodecType.RAW) {
            System.arraycopy(frame, h.payloadOffset, out, 0, stored);
            return out;
        }
        if (h.dictionary) {
            decodeWithDictionary(topic, frame, h, stored, out);
            return out;
        }
        try {
            decompressor(h.codec).decompress(frame, h.payloadOffset, stored, out, 0, h.uncompressedLength);
        } catch (DataFormatException e) {
            throw new AdaptiveFrameException(RecordFrame.where(topic) + "corrupt or truncated " + h.codec.specName()
                    + " frame (" + stored + " payload bytes, " + h.uncompressedLength + " declared): "
                    + e.getMessage(), e);
        }
        return out;
    }

    private void decodeWithDictionary(String topic, byte[] frame, RecordFrame.Header h, int stored, byte[] out) {
        ZstdDecompressCtx ctx = byDictionary.get(h.dictionaryId);
        if (ctx == null) {
            ZstdDictionary d = dictionaries.resolve(topic, h.dictionaryId);
            ctx = new ZstdDecompressCtx();
            ctx.loadDict(d.bytes);
            byDictionary.put(h.dictionaryId, ctx);
        }
        int written;
        try {
            written = ctx.decompressByteArray(out, 0, out.length, frame, h.payloadOffset, stored);
        } catch (ZstdException e) {
            throw new AdaptiveFrameException(RecordFrame.where(topic) + "corrupt or truncated zstd dictionary frame ("
                    + stored + " payload bytes, " + h.uncompressedLength + " declared): " + e.getMessage(), e);
        }
        if (written != out.length) {
            throw new AdaptiveFrameException(RecordFrame.where(topic) + "zstd dictionary frame decodes to " + written
                    + " bytes but declares " + out.length);
        }
    }

    private BlockDecompressor decompressor(CodecType codec) {
        BlockDecompressor d = byCodec[codec.id()];
        if (d == null) {
            d = Codecs.newDecompressor(codec);
            byCodec[codec.id()] = d;
        }
        return d;
    }

    @Override
    public void close() {
        for (int i = 0; i < byCodec.length; i++) {
            if (byCodec[i] != null) {
                byCodec[i].close();
                byCodec[i] = null;
            }
        }
        for (ZstdDecompressCtx ctx : byDictionary.values()) {
            ctx.close();
        }
        byDictionary.clear();
    }
}
