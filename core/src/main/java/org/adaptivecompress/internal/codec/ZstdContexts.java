package org.adaptivecompress.internal.codec;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Idle zstd-jni contexts, kept for the next {@link ZstdCodec} compressor or decompressor to
 * take instead of making its own: making and freeing a context allocates and frees its native
 * workspace, which costs more than compressing a short record with one already made, so a
 * stream shorter than a block would spend most of its time on it. A context given back is reset to
 * zstd's defaults (level, parameters and any frame in progress), so it carries nothing from one
 * owner to the next; at most {@link #MAX_IDLE} of each kind wait here, and the rest are freed.
 * Contexts that keep a window across blocks ({@link ZstdHistoryCompressor}) are not pooled:
 * their tables are sized for the window, and streams that keep them are long.
 *
 * <p>Thread-safe. A context taken belongs to its taker alone until given back, so a compressor
 * or decompressor must not be closed while another thread still works with it: zstd-jni defers
 * closing a context in use, but one given back here may be taken at once. The stream's workers,
 * the Netty encoder's compression task and the Kafka serde's encoder pool each close theirs only
 * once the block in flight is done.
 */
final class ZstdContexts {

    /**
     * Idle contexts kept per kind: one per core, as a core compresses one block at a time, and
     * 4 to 16 of them. A compression context that has compressed a 128 KiB block holds 0.2 MiB
     * at zstd:1 to 1.9 MiB at zstd:15 and above, a decompression context 87 KiB: at most
     * 30 MiB and 1.4 MiB kept, and only after that many were in use at once.
     */
    static final int MAX_IDLE = Math.min(16, Math.max(4, Runtime.getRuntime().availableProcessors()));

    private static final Idle<ZstdCompressCtx> COMPRESS =
            new Idle<>(ZstdCompressCtx::new, ZstdCompressCtx::reset, ZstdCompressCtx::close);
    private static final Idle<ZstdDecompressCtx> DECOMPRESS =
            new Idle<>(ZstdDecompressCtx::new, ZstdDecompressCtx::reset, ZstdDecompressCtx::close);

    private ZstdContexts() {}

    /** An idle compression context with zstd's defaults, or a new one. */
    static ZstdCompressCtx takeCompressor() {
        return COMPRESS.take();
    }

    /** Gives back a context taken with {@link #takeCompressor}; the caller must not use it again. */
    static void giveBack(ZstdCompressCtx ctx) {
        COMPRESS.giveBack(ctx);
    }

    /** An idle decompression context with zstd's defaults, or a new one. */
    static ZstdDecompressCtx takeDecompressor() {
        return DECOMPRESS.take();
    }

    /** Gives back a context taken with {@link #takeDecompressor}; the caller must not use it again. */
    static void giveBack(ZstdDecompressCtx ctx) {
        DECOMPRESS.giveBack(ctx);
    }

    /** Contexts of one kind waiting for an owner. */
    private static final class Idle<T> {
        /** Last given back, first taken: its workspace is the likeliest to be in cache. */
        private final ConcurrentLinkedDeque<T> waiting = new ConcurrentLinkedDeque<>();
        /** Counts the deque, whose own size() walks it; may run ahead of it for a moment, never behind. */
        private final AtomicInteger count = new AtomicInteger();
        private final Supplier<T> make;
        private final Consumer<T> reset;
        private final Consumer<T> free;

        Idle(Supplier<T> make, Consumer<T> reset, Consumer<T> free) {
            this.make = make;
            this.reset = reset;
            this.free = free;
        }

        T take() {
            T ctx = waiting.pollFirst();
            if (ctx == null) {
                return make.get();
            }
            count.decrementAndGet();
            return ctx;
        }

        void giveBack(T ctx) {
            try {
                reset.accept(ctx);
            } catch (RuntimeException e) {
                // A context zstd cannot reset is not handed to anyone else.
                free.accept(ctx);
                return;
            }
            if (count.incrementAndGet() > MAX_IDLE) {
                count.decrementAndGet();
                free.accept(ctx);
                return;
            }
            waiting.offerFirst(ctx);
        }
    }
}
