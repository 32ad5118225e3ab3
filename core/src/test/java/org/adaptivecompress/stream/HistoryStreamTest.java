package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.zip.CRC32C;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.format.BlockSequenceException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Histories: zstd and xz blocks that match across block boundaries, in any pipeline, and the reader's checks. */
class HistoryStreamTest {

    private static final int BLOCK = 32 * 1024;
    private static final int SALT = 0x0BADC0DE;

    /** A block header as written: codec, flags, history id and lengths. */
    private static final class Block {
        final int offset;
        final int codec;
        final int flags;
        final int historyId;
        final int stored;

        Block(int offset, int codec, int flags, int historyId, int stored) {
            this.offset = offset;
            this.codec = codec;
            this.flags = flags;
            this.historyId = historyId;
            this.stored = stored;
        }

        int codec() {
            return codec;
        }

        int flags() {
            return flags;
        }

        int historyId() {
            return historyId;
        }
    }

    private static byte[] write(byte[] data, boolean history, String ladder,
            Supplier<? extends LevelController> controller, int maxWorkers) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().ladder(ladder).controller(controller)
                .blockSize(BLOCK).history(history).maxWorkers(maxWorkers).build(sink)) {
            for (int i = 0; i < data.length; i += 10_000) {
                out.write(data, i, Math.min(10_000, data.length - i));
            }
        }
        return sink.toByteArray();
    }

    private static byte[] read(byte[] stream) throws IOException {
        try (InputStream in = new AdaptiveInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    private static List<Block> blocks(byte[] stream) {
        List<Block> blocks = new ArrayList<>();
        int offset = FrameFormat.STREAM_HEADER_LENGTH;
        while ((stream[offset] & 0xFF) != FrameFormat.END_OF_STREAM) {
            int stored = FrameFormat.getInt(stream, offset + 8);
            blocks.add(new Block(offset, stream[offset] & 0xFF, stream[offset + 1], stream[offset + 3] & 0xFF, stored));
            offset += FrameFormat.BLOCK_HEADER_LENGTH + stored;
        }
        return blocks;
    }

    /** {@code stream} without the frame of {@code block}. */
    private static byte[] without(byte[] stream, Block block) {
        int end = block.offset + FrameFormat.BLOCK_HEADER_LENGTH + block.stored;
        byte[] cut = new byte[stream.length - (end - block.offset)];
        System.arraycopy(stream, 0, cut, 0, block.offset);
        System.arraycopy(stream, end, cut, block.offset, stream.length - end);
        return cut;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zstd:3", "xz:2"})
    void blocksMatchWhatEarlierBlocksHeldAndTheStreamSaysSo(String rung) throws IOException {
        // The text corpus repeats every 1.2 MB: only a window across blocks, of 2 MiB at these
        // levels as in the native tools, sees that.
        byte[] data = DataKind.TEXT.generate(4 << 20);

        byte[] alone = write(data, false, "raw," + rung, () -> new FixedController(1), 1);
        byte[] withHistory = write(data, true, "raw," + rung, () -> new FixedController(1), 1);

        assertThat(read(withHistory)).isEqualTo(data);
        assertThat(read(alone)).isEqualTo(data);
        assertThat(withHistory.length).isLessThan(alone.length / 2);
        assertThat(FrameFormat.usesHistory(withHistory, 0)).isTrue();
        assertThat(FrameFormat.usesHistory(alone, 0)).isFalse();
        assertThat(blocks(alone)).allSatisfy(b -> assertThat(b.historyId()).isZero());
        List<Block> blocks = blocks(withHistory);
        assertThat(blocks.get(0).flags()).isZero();
        assertThat(blocks.subList(1, blocks.size())).allSatisfy(b -> {
            assertThat(b.historyId()).isEqualTo(1);
            assertThat(b.flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zstd:3", "zstd:5"})
    void lowLevelsFindARepeatAMegabyteBackStreamedOrPrimed(String rung) throws IOException {
        // The text corpus repeats every 1.2 MB: from 1.5 MiB on, each block is a match that far
        // back, which the default hash tables of the levels with a 2 MiB window (128K entries at
        // level 3) have lost. Levels 1 and 2 keep a window shorter than that, as zstd does.
        byte[] data = DataKind.TEXT.generate(2 << 20);
        int firstBlocks = (3 << 19) / BLOCK;
        int repeatBlocks = (1 << 19) / BLOCK;

        byte[] streamed = write(data, true, "raw,lz4," + rung, () -> new FixedController(2), 1);
        // LZ4 up to there, so the rung's history starts primed with the stream's last 2 MiB.
        byte[] primed = write(data, true, "raw,lz4," + rung,
                () -> new ScriptedController(runs(1, firstBlocks, 2, repeatBlocks)), 1);

        assertThat(read(streamed)).isEqualTo(data);
        assertThat(read(primed)).isEqualTo(data);
        for (byte[] stream : List.of(streamed, primed)) {
            List<Block> repeat = blocks(stream).subList(firstBlocks, firstBlocks + repeatBlocks);
            assertThat(repeat).allSatisfy(b -> assertThat(b.stored).isLessThan(BLOCK / 50));
        }
        assertThat(blocks(primed).get(firstBlocks).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_PRIMED);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void everyRungInTurnWithWorkersRoundTripsBitExact(int workers) throws IOException {
        // Random stretches make zstd blocks fall back to raw and restart their frames.
        byte[] data = DataKind.MIXED.generate(3 << 20);

        byte[] stream = write(data, true, "raw,lz4,zstd:1,zstd:3,zstd:9,xz:1",
                () -> new ScriptedController(2, 3, 4, 3, 0, 1, 4, 4, 5, 2, 2), workers);

        assertThat(read(stream)).isEqualTo(data);
        Set<Integer> ids = new HashSet<>();
        for (Block b : blocks(stream)) {
            if (b.historyId() != 0) {
                assertThat(b.codec()).isIn(2, 3);
                ids.add(b.historyId());
            }
        }
        assertThat(ids).isNotEmpty();
        assertThat(ids).allSatisfy(id -> assertThat(id).isBetween(1, FrameFormat.MAX_HISTORIES));
    }

    @Test
    void moreRungsThanHistoriesReuseIdsAcrossCodecsAndStillDecode() throws IOException {
        StringBuilder ladder = new StringBuilder("raw");
        for (int level = 1; level <= 14; level++) {
            ladder.append(",zstd:").append(level);
        }
        for (int preset = 0; preset <= 5; preset++) {
            ladder.append(",xz:").append(preset);
        }
        byte[] data = DataKind.JSON_EVENTS.generate(2 << 20);

        // Each block at the next rung: 14 zstd and 6 xz rungs share 16 histories, so ids pass
        // from one codec to the other.
        byte[] stream = write(data, true, ladder.toString(), () -> ScriptedController.everyRung(21), 1);

        assertThat(read(stream)).isEqualTo(data);
        Set<Integer> ids = new HashSet<>();
        blocks(stream).forEach(b -> ids.add(b.historyId()));
        assertThat(ids).contains(FrameFormat.MAX_HISTORIES).allSatisfy(id -> assertThat(id)
                .isBetween(0, FrameFormat.MAX_HISTORIES));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zstd:3", "xz:2"})
    void aBlockThatDoesNotShrinkStaysInItsHistorysStreamWhichGoesOn(String rung) throws IOException {
        byte[] text = DataKind.TEXT.generate(BLOCK);
        byte[] noise = new byte[BLOCK];
        new Random(7).nextBytes(noise);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        data.write(text, 0, text.length);
        data.write(noise, 0, noise.length);
        data.write(noise, 0, noise.length);
        data.write(text, 0, text.length);
        // A fixed controller lets the engine skip after a block that does not shrink, but not
        // a block lent a history, which is to see every byte.
        byte[] stream = write(data.toByteArray(), true, "raw," + rung, () -> new FixedController(1), 1);

        assertThat(read(stream)).isEqualTo(data.toByteArray());
        List<Block> blocks = blocks(stream);
        int codec = rung.startsWith("xz") ? 3 : 2;
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(4).allSatisfy(b -> {
            assertThat(b.codec).isEqualTo(codec);
            assertThat(b.historyId).isEqualTo(1);
        });
        assertThat(blocks.get(0).flags()).isZero();
        assertThat(blocks.subList(1, blocks.size()))
                .allSatisfy(b -> assertThat(b.flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES));
        // The first noise block is stored at about its size, codec headers and all; every block
        // after it repeats one before it (the second noise block, the text), found in the window.
        assertThat(blocks.get(1).stored).isBetween(BLOCK - BLOCK / 32, FrameFormat.maxHistoryPayload(BLOCK));
        assertThat(blocks.subList(2, blocks.size())).allSatisfy(b -> assertThat(b.stored).isLessThan(BLOCK / 50));
    }

    @Test
    void aHistoryBlockStoringMoreThanItsContentAndTheCodecsHeadersIsRefused() throws IOException {
        byte[] stream = write(DataKind.TEXT.generate(2 * BLOCK), true, "raw,zstd:3", () -> new FixedController(1), 1);
        Block second = blocks(stream).get(1);
        // Declares a payload one byte over the bound; the header check is made good so only the length is wrong.
        FrameFormat.putInt(stream, second.offset + 4, 1);
        FrameFormat.putInt(stream, second.offset + 8, FrameFormat.maxHistoryPayload(1) + 1);
        resign(stream, second.offset);

        assertThat(catchThrowable(() -> read(stream))).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("more than the " + FrameFormat.maxHistoryPayload(1) + " a history block may");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zstd:3", "xz:1"})
    void aBlockMissingFromAHistoryFailsTypedAndNeverYieldsWrongBytes(String rung) throws IOException {
        byte[] data = DataKind.TEXT.generate(1 << 20);
        byte[] stream = write(data, true, "raw," + rung, () -> new FixedController(1), 1);
        List<Block> blocks = blocks(stream);

        // The first block opens the history: without it, the next block is out of place (its
        // stream offset), and had nothing to continue anyway.
        Throwable noOpener = catchThrowable(() -> read(without(stream, blocks.get(0))));
        assertThat(noOpener).isInstanceOf(BlockSequenceException.class)
                .hasMessageContaining("missing, repeated or out of order");
        // A block from the middle: the frame goes on without it, which decoding or the CRC catches.
        Throwable gap = catchThrowable(() -> read(without(stream, blocks.get(3))));
        assertThat(gap).isInstanceOf(FrameFormatException.class);
    }

    // zstd's dictionary tables at levels 1-3 are too sparse to find these matches; 6 and up do.
    // xz:1's 1 MiB dictionary would keep only the prime's last megabyte.
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zstd:9", "xz:2"})
    void aHistoryStartedLateIsPrimedWithWhatOtherRungsCompressed(String rung) throws IOException {
        // 48 blocks of LZ4 (1.5 MB, past the corpus's 1.2 MB period), then the history rung.
        byte[] data = DataKind.TEXT.generate(2 << 20);
        int[] script = runs(1, 48, 2, 16);

        byte[] stream = write(data, true, "raw,lz4," + rung, () -> new ScriptedController(script), 1);

        assertThat(read(stream)).isEqualTo(data);
        List<Block> blocks = blocks(stream);
        Block first = blocks.get(48);
        assertThat(first.flags()).isEqualTo(FrameFormat.BLOCK_FLAG_PRIMED);
        // It repeats what the LZ4 blocks carried 1.2 MB before: the primed history finds it.
        assertThat(first.stored).isLessThan(BLOCK / 20);
        assertThat(blocks.get(49).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zstd:15", "xz:6"})
    void rungsSlowToLoadADictionaryArePrimedWithTheLast512KiBOnly(String rung) throws IOException {
        byte[] data = DataKind.TEXT.generate(1 << 20);
        int[] script = runs(1, 24, 2, 8);

        byte[] stream = write(data, true, "raw,lz4," + rung, () -> new ScriptedController(script), 1);

        assertThat(read(stream)).isEqualTo(data);
        assertThat(blocks(stream).get(24).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_PRIMED_SHORT);
        assertThat(blocks(stream).get(25).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
    }

    @Test
    void aHistoryThatMissedHalfAWindowIsPrimedAfresh() throws IOException {
        byte[] data = DataKind.JSON_EVENTS.generate(2 << 20);
        // zstd:3 for 4 blocks, LZ4 for 40 (1.25 MiB, over half the 2 MiB window), zstd:3 again.
        int[] script = runs(2, 4, 1, 40, 2, 20);

        byte[] stream = write(data, true, "raw,lz4,zstd:3", () -> new ScriptedController(script), 1);

        assertThat(read(stream)).isEqualTo(data);
        List<Block> blocks = blocks(stream);
        assertThat(blocks.get(3).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
        assertThat(blocks.get(44).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_PRIMED);
        assertThat(blocks.get(44).historyId()).isEqualTo(blocks.get(3).historyId());
    }

    @Test
    void aHistoryThatMissedHalfAWindowGoesOnFromItsOwnWindowWhenTheControllerDoesNotPrime() throws IOException {
        byte[] data = DataKind.JSON_EVENTS.generate(2 << 20);
        int[] script = runs(2, 4, 1, 40, 2, 20);

        byte[] stream = write(data, true, "raw,lz4,zstd:3", () -> new ScriptedController(script).notPriming(), 1);

        assertThat(read(stream)).isEqualTo(data);
        List<Block> blocks = blocks(stream);
        assertThat(blocks.get(44).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
        assertThat(blocks).noneMatch(b -> (b.flags() & (FrameFormat.BLOCK_FLAG_PRIMED | FrameFormat.BLOCK_FLAG_PRIMED_SHORT)) != 0);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void historiesPrimedAfreshRoundAfterRoundDecodeBitExact(int workers) throws IOException {
        // Rounds of zstd:3 for 4 blocks, xz:1 for 4 and raw for 40 (over half the window) over
        // 6 MiB: every round primes both histories afresh, from the tail's full 2 MiB once the
        // stream has passed it, so writer and reader fill their prime arrays again and xz hands
        // each abandoned encoder's arrays back to its cache; none of it may change a byte.
        byte[] data = DataKind.TEXT.generate(6 << 20);

        byte[] stream = write(data, true, "raw,zstd:3,xz:1", () -> new ScriptedController(runs(1, 4, 2, 4, 0, 40)),
                workers);

        assertThat(read(stream)).isEqualTo(data);
        List<Block> blocks = blocks(stream);
        // With workers the rungs land a block or two later than the script says; count instead.
        for (int codec : new int[] {2, 3}) {
            assertThat(blocks.stream().filter(b -> b.codec() == codec && b.flags() == FrameFormat.BLOCK_FLAG_PRIMED))
                    .as("codec %d", codec).hasSizeGreaterThanOrEqualTo(blocks.size() / 48 - 1);
        }
    }

    @Test
    void theControllerIsToldWhichBlocksStartedAHistory() throws IOException {
        byte[] data = DataKind.JSON_EVENTS.generate(2 << 20);
        // zstd:3 for 4 blocks, LZ4 for 40 (over half the window), zstd:3 again: primed afresh.
        int[] script = runs(2, 4, 1, 40, 2, 20);
        ScriptedController withHistories = new ScriptedController(script);
        ScriptedController without = new ScriptedController(script);

        write(data, true, "raw,lz4,zstd:3", () -> withHistories, 1);
        write(data, false, "raw,lz4,zstd:3", () -> without, 1);

        List<Integer> started = new ArrayList<>();
        for (int i = 0; i < withHistories.observations().size(); i++) {
            if (withHistories.observations().get(i).historyStarted()) {
                started.add(i);
            }
        }
        assertThat(started).containsExactly(0, 44);
        assertThat(without.observations()).noneMatch(Observation::historyStarted);
    }

    @Test
    void blocksWithheldAHistoryDecodeAloneAndItIsPrimedAgainOnlyOnceTheTailHoldsAWindow() throws IOException {
        byte[] data = DataKind.TEXT.generate(5 << 20);
        // Withheld for blocks 8-55; zstd:3's history then misses over half a window twice,
        // at LZ4 for blocks 60-99 and 104-139. A window is 64 blocks of 32 KiB.
        int[] script = runs(2, 60, 1, 40, 2, 4, 1, 36, 2, 20);
        ScriptedController controller = new ScriptedController(script).withholdingHistories(8, 56);

        byte[] stream = write(data, true, "raw,lz4,zstd:3", () -> controller, 1);

        assertThat(read(stream)).isEqualTo(data);
        List<Block> blocks = blocks(stream);
        List<Observation> observations = controller.observations();
        for (int i = 0; i < 60; i++) {
            assertThat(blocks.get(i).historyId() == 0).as("block %d decodes alone", i).isEqualTo(i >= 8 && i < 56);
            assertThat(observations.get(i).historyWithheld()).as("block %d withheld", i).isEqualTo(i >= 8 && i < 56);
        }
        // The tail was dropped while withheld: at block 56 it is empty and at block 100 it
        // holds 44 blocks where a reader's holds 64, so the history goes on from its own window
        // rather than start from a prime other than the one the format names. At block 140 it
        // holds a window again.
        assertThat(blocks.get(56).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
        assertThat(blocks.get(100).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_CONTINUES);
        assertThat(blocks.get(140).flags()).isEqualTo(FrameFormat.BLOCK_FLAG_PRIMED);
        assertThat(observations).noneMatch(o -> o.rung() == 1 && o.historyWithheld());
    }

    @Test
    void aPrimedBlockAfterAMissingBlockFailsTyped() throws IOException {
        byte[] data = DataKind.TEXT.generate(2 << 20);
        int[] script = runs(1, 48, 2, 16);
        byte[] stream = write(data, true, "raw,lz4,zstd:3", () -> new ScriptedController(script), 1);

        // An LZ4 block the primed one's window held: the reader primes with other bytes.
        assertThat(catchThrowable(() -> read(without(stream, blocks(stream).get(40)))))
                .isInstanceOf(FrameFormatException.class);
    }

    /** A controller script from (rung, blocks) pairs: {@code runs(1, 48, 2, 16)} is 48 blocks at 1, then 16 at 2. */
    private static int[] runs(int... rungAndBlocks) {
        int[] script = new int[java.util.stream.IntStream.range(0, rungAndBlocks.length / 2)
                .map(i -> rungAndBlocks[2 * i + 1]).sum()];
        for (int i = 0, at = 0; i < rungAndBlocks.length; i += 2) {
            java.util.Arrays.fill(script, at, at + rungAndBlocks[i + 1], rungAndBlocks[i]);
            at += rungAndBlocks[i + 1];
        }
        return script;
    }

    @Test
    void headersThatMisuseHistoriesAreCorrupt() {
        assertThat(readOneBlock(true, 0 /* raw */, 0, 1)).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("only zstd and xz blocks have histories");
        assertThat(readOneBlock(true, 2, 0, FrameFormat.MAX_HISTORIES + 1)).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("histories are 1-" + FrameFormat.MAX_HISTORIES);
        assertThat(readOneBlock(true, 2, FrameFormat.BLOCK_FLAG_CONTINUES, 0))
                .isInstanceOf(CorruptFrameException.class).hasMessageContaining("continues it");
        assertThat(readOneBlock(false, 2, 0, 1)).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("in a stream whose header allows no histories");
        assertThat(readOneBlock(true, 2, 0x10 | FrameFormat.BLOCK_FLAG_CONTINUES, 1))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("sets flag bits 0x10, which format version 3 does not define");
        assertThat(readOneBlock(true, 2, FrameFormat.BLOCK_FLAG_RESET | FrameFormat.BLOCK_FLAG_CONTINUES, 1))
                .isInstanceOf(CorruptFrameException.class).hasMessageContaining("one of these");
        assertThat(readOneBlock(false, 0, FrameFormat.BLOCK_FLAG_RESET, 0)).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("in a stream whose header allows no histories");
        assertThat(readOneBlock(true, 2, FrameFormat.BLOCK_FLAG_CONTINUES, 1))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("continuing history 1, which no earlier block opened");
        assertThat(readOneBlock(true, 2, FrameFormat.BLOCK_FLAG_PRIMED, 0))
                .isInstanceOf(CorruptFrameException.class).hasMessageContaining("primes it");
        assertThat(readOneBlock(true, 2, FrameFormat.BLOCK_FLAG_CONTINUES | FrameFormat.BLOCK_FLAG_PRIMED, 1))
                .isInstanceOf(CorruptFrameException.class).hasMessageContaining("one of these");
    }

    /** Reads a stream of one hand-made 8-byte block with these header fields. */
    private static Throwable readOneBlock(boolean streamHistory, int codec, int flags, int historyId) {
        byte[] bytes = new byte[FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH + 8];
        FrameFormat.writeStreamHeader(bytes, 0, SALT, streamHistory ? FrameFormat.HISTORY_WINDOW_LOG : 0);
        FrameFormat.writeBlockHeader(bytes, FrameFormat.STREAM_HEADER_LENGTH, SALT, codec, 0, historyId, flags, 8,
                8, 0, 0, new CRC32C());
        return catchThrowable(() -> read(bytes));
    }


    /**
     * A primed block loads up to a window whatever its own size: a stream of one-byte blocks
     * that each prime would cost a 2 MiB copy per few bytes of input. Past the budget every
     * writer keeps (16 primes, then one per 64 KiB of content), the reader refuses.
     */
    @Test
    void primesPastTheStreamsBudgetAreRefused() {
        int window = 1 << FrameFormat.HISTORY_WINDOW_LOG;
        byte[] first = DataKind.TEXT.generate(window);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        byte[] header = new byte[FrameFormat.BLOCK_HEADER_LENGTH];
        CRC32C scratch = new CRC32C();
        byte[] streamHeader = new byte[FrameFormat.STREAM_HEADER_LENGTH];
        FrameFormat.writeStreamHeader(streamHeader, 0, SALT, FrameFormat.HISTORY_WINDOW_LOG);
        stream.write(streamHeader, 0, streamHeader.length);
        FrameFormat.writeBlockHeader(header, 0, SALT, 0, 0, first.length, first.length, crc(first, 0, first.length), 0,
                scratch);
        stream.write(header, 0, header.length);
        stream.write(first, 0, first.length);
        // Then one-byte zstd blocks, each starting history 1 primed with the stream's last 2 MiB.
        byte[] content = first.clone();
        int primedBlocks = (int) FrameFormat.primesAllowed(window) + 1;
        try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
            for (int i = 0; i < primedBlocks; i++) {
                byte[] dictionary = java.util.Arrays.copyOfRange(content, content.length - window, content.length);
                zstd.reset();
                zstd.setLevel(1);
                zstd.loadDict(dictionary);
                byte[] one = {(byte) ('a' + i % 26)};
                byte[] payload = zstd.compress(one);
                FrameFormat.writeBlockHeader(header, 0, SALT, 2, 1, 1, FrameFormat.BLOCK_FLAG_PRIMED, 1,
                        payload.length, crc(one, 0, 1), content.length, scratch);
                stream.write(header, 0, header.length);
                stream.write(payload, 0, payload.length);
                content = java.util.Arrays.copyOf(content, content.length + 1);
                content[content.length - 1] = one[0];
            }
        }

        assertThat(catchThrowable(() -> read(stream.toByteArray()))).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("past the stream's budget").hasMessageContaining("no writer primes that often");
    }

    /** Makes the header check of the block header at {@code offset} good again after an edit, with the stream's salt. */
    private static void resign(byte[] stream, int offset) {
        int salt = FrameFormat.getInt(stream, 8);
        FrameFormat.putInt(stream, offset + 24, FrameFormat.headerCheck(stream, offset, 24, salt, new CRC32C()));
    }

    private static int crc(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }

    @Test
    void aBlockOfAnotherCodecCannotContinueAHistory() throws IOException {
        byte[] stream = write(DataKind.TEXT.generate(200_000), true, "raw,zstd:3", () -> new FixedController(1), 1);
        Block second = blocks(stream).get(1);
        // The second zstd block, relabelled xz and re-sealed with the stream's salt.
        stream[second.offset] = 3;
        resign(stream, second.offset);

        assertThat(catchThrowable(() -> read(stream))).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("continuing history 1, which holds ZSTD blocks");
    }

    @Test
    void aHistoryFrameAskingForMoreThanTheWindowIsRefusedBeforeItIsAllocated() {
        // A valid zstd frame, but with a 128 MiB window, where the format allows 2 MiB.
        byte[] content = DataKind.TEXT.generate(4096);
        byte[] payload;
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.setLevel(3);
            ctx.setWindowLog(27);
            ByteBuffer out = ByteBuffer.allocate(8192);
            ctx.compressByteBufferStream(out, ByteBuffer.wrap(content), EndDirective.FLUSH);
            payload = java.util.Arrays.copyOf(out.array(), out.position());
        }
        CRC32C crc = new CRC32C();
        crc.update(content);
        // The frame, then an end marker: a reader that took the frame would read to the end.
        byte[] bytes =
                new byte[FrameFormat.STREAM_HEADER_LENGTH + 2 * FrameFormat.BLOCK_HEADER_LENGTH + payload.length];
        FrameFormat.writeStreamHeader(bytes, 0, SALT, FrameFormat.HISTORY_WINDOW_LOG);
        FrameFormat.writeBlockHeader(bytes, FrameFormat.STREAM_HEADER_LENGTH, SALT, 2, 3, 1, 0, content.length,
                payload.length, (int) crc.getValue(), 0, new CRC32C());
        System.arraycopy(payload, 0, bytes, FrameFormat.STREAM_HEADER_LENGTH + FrameFormat.BLOCK_HEADER_LENGTH,
                payload.length);
        FrameFormat.writeBlockHeader(bytes, bytes.length - FrameFormat.BLOCK_HEADER_LENGTH, SALT,
                FrameFormat.END_OF_STREAM, 0, 0, 0, 0, content.length, new CRC32C());

        assertThat(catchThrowable(() -> read(bytes))).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("does not decode");
    }

    @Test
    void concatenatedStreamsWithHistoriesDecodeOneAfterAnother() throws IOException {
        byte[] first = DataKind.TEXT.generate(300_000);
        byte[] second = DataKind.JSON_EVENTS.generate(300_000);
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.write(write(first, true, "raw,zstd:3", () -> new FixedController(1), 1));
        both.write(write(second, true, "raw,zstd:3", () -> new FixedController(1), 1));

        byte[] decoded;
        try (InputStream in = AdaptiveInputStream.builder().concatenated(true)
                .build(new ByteArrayInputStream(both.toByteArray()))) {
            decoded = in.readAllBytes();
        }

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(first);
        expected.write(second);
        assertThat(decoded).isEqualTo(expected.toByteArray());
    }
}
