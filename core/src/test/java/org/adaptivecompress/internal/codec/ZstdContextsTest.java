package org.adaptivecompress.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.adaptivecompress.internal.codec.BlockCompressor;
import org.adaptivecompress.internal.codec.BlockDecompressor;
import org.junit.jupiter.api.Test;

class ZstdContextsTest {

    private static final byte[] RECORD = ("{\"user\":42,\"event\":\"click\",\"page\":\"/cart\",\"ms\":1764190000000}"
            .repeat(40)).getBytes(StandardCharsets.UTF_8);

    @Test
    void aContextGivenBackIsTakenAgainWithNothingLeftOfItsLastOwner() {
        ZstdCompressCtx ctx = ZstdContexts.takeCompressor();
        ctx.setLevel(19);
        ctx.setChecksum(true);
        ctx.compress(RECORD);
        ZstdContexts.giveBack(ctx);

        ZstdCompressCtx again = ZstdContexts.takeCompressor();
        try {
            assertThat(again).isSameAs(ctx);
            try (ZstdCompressCtx fresh = new ZstdCompressCtx()) {
                assertThat(again.compress(RECORD)).as("zstd's defaults").isEqualTo(fresh.compress(RECORD));
            }
        } finally {
            ZstdContexts.giveBack(again);
        }
    }

    @Test
    void aCompressorAfterOneAtAnotherLevelCompressesAsANewContextWould() throws Exception {
        BlockCompressor high = ZstdCodec.compressor(19);
        byte[] scratch = new byte[RECORD.length * 2];
        high.compress(RECORD, 0, RECORD.length, scratch, 0, scratch.length);
        high.close();

        BlockCompressor low = ZstdCodec.compressor(1);
        byte[] frame = new byte[RECORD.length * 2];
        int length = low.compress(RECORD, 0, RECORD.length, frame, 0, frame.length);
        low.close();

        try (ZstdCompressCtx fresh = new ZstdCompressCtx()) {
            fresh.setLevel(1);
            fresh.setChecksum(false);
            fresh.setContentSize(true);
            assertThat(Arrays.copyOf(frame, length)).isEqualTo(fresh.compress(RECORD));
        }
        BlockDecompressor decompressor = ZstdCodec.decompressor();
        byte[] back = new byte[RECORD.length];
        decompressor.decompress(frame, 0, length, back, 0, back.length);
        decompressor.close();
        assertThat(back).isEqualTo(RECORD);
    }

    @Test
    void noMoreThanMaxIdleContextsWaitAndTheRestAreFreed() {
        // Taking one more than may wait empties the pool, whatever earlier tests left in it.
        List<ZstdCompressCtx> taken = new ArrayList<>();
        for (int i = 0; i <= ZstdContexts.MAX_IDLE; i++) {
            taken.add(ZstdContexts.takeCompressor());
        }
        taken.forEach(ZstdContexts::giveBack);

        ZstdCompressCtx last = taken.get(ZstdContexts.MAX_IDLE);
        assertThatThrownBy(() -> last.setLevel(3)).as("the one past the bound is freed")
                .isInstanceOf(IllegalStateException.class);
        Set<ZstdCompressCtx> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < ZstdContexts.MAX_IDLE; i++) {
            kept.add(ZstdContexts.takeCompressor());
        }
        try {
            assertThat(kept).containsExactlyInAnyOrderElementsOf(taken.subList(0, ZstdContexts.MAX_IDLE));
        } finally {
            kept.forEach(ZstdContexts::giveBack);
        }
    }

    @Test
    void threadsTakingAndGivingBackAtOnceNeverShareAContext() throws Exception {
        int threads = 4;
        Map<ZstdCompressCtx, Thread> owners = new ConcurrentHashMap<>();
        List<String> clashes = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int level = 1 + 2 * t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 2_000; i++) {
                        BlockCompressor compressor = ZstdCodec.compressor(level);
                        ZstdCompressCtx ctx = ZstdContexts.takeCompressor();
                        if (owners.putIfAbsent(ctx, Thread.currentThread()) != null) {
                            clashes.add("a context owned twice");
                        }
                        byte[] frame = new byte[RECORD.length * 2];
                        int length = compressor.compress(RECORD, 0, RECORD.length, frame, 0, frame.length);
                        if (!Arrays.equals(Zstd.decompress(Arrays.copyOf(frame, length), RECORD.length), RECORD)) {
                            clashes.add("a frame that does not decode to its input");
                        }
                        owners.remove(ctx);
                        ZstdContexts.giveBack(ctx);
                        compressor.close();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(clashes).isEmpty();
    }

    @Test
    void aCompressorClosedTwiceGivesItsContextBackOnceAndRefusesWorkAfterward() {
        BlockCompressor compressor = ZstdCodec.compressor(3);
        compressor.close();
        compressor.close();

        ZstdCompressCtx first = ZstdContexts.takeCompressor();
        ZstdCompressCtx second = ZstdContexts.takeCompressor();
        try {
            assertThat(second).isNotSameAs(first);
            byte[] frame = new byte[RECORD.length * 2];
            assertThatThrownBy(() -> compressor.compress(RECORD, 0, RECORD.length, frame, 0, frame.length))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        } finally {
            ZstdContexts.giveBack(first);
            ZstdContexts.giveBack(second);
        }
    }

    @Test
    void aDecompressorClosedRefusesWork() {
        BlockDecompressor decompressor = ZstdCodec.decompressor();
        decompressor.close();
        decompressor.close();

        assertThatThrownBy(() -> decompressor.decompress(new byte[8], 0, 8, new byte[8], 0, 8))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
}
