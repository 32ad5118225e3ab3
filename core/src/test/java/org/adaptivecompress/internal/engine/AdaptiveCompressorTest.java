package org.adaptivecompress.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.adaptivecompress.codec.Ladder;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.control.LevelController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.control.Reason;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.format.BlockDecoder;
import org.adaptivecompress.internal.format.BlockHeader;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;

class AdaptiveCompressorTest {

    private static final int BLOCK = 32 * 1024;

    /** A named fixed rung the ladder does not have is refused, whichever was set first; an object clamps. */
    @Test
    void aNamedFixedRungMustBeOnTheLadder() {
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().controller("fixed:99").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'fixed:99' names rung 99").hasMessageContaining("rungs 0 to 6");
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().controller("fixed:3").ladder("raw,lz4").build())
                .hasMessageContaining("has rungs 0 to 1");
        assertThat(AdaptiveCompressionOptions.builder().ladder("raw,lz4").controller("fixed:1").build().ladder().top())
                .isEqualTo(1);
        assertThat(AdaptiveCompressionOptions.builder().ladder("raw,lz4").controller(() -> new FixedController(9)).build())
                .isNotNull();
        AdaptiveCompressionOptions pinned = AdaptiveCompressionOptions.builder().controller("fixed:6").build();
        assertThatThrownBy(() -> pinned.toBuilder().ladder("raw,lz4").build()).hasMessageContaining("fixed:6");
    }

    @Test
    void tellsTheControllerWhatEachBlockDidAndFollowsItsChoice() {
        ScriptedController controller = new ScriptedController(0, 2, 1);
        List<String> changes = new ArrayList<>();
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3").blockSize(BLOCK)
                .controller(() -> controller).listener((o, d) -> changes.add(o.blockNumber() + ":" + o.rung() + "->" + d.rung()))
                .build();
        byte[] text = DataKind.TEXT.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];

        try (AdaptiveCompressor compressor = new AdaptiveCompressor(options)) {
            for (int i = 0; i < 3; i++) {
                compressor.compressBlock(text, 0, BLOCK, frame, 0);
                compressor.update(PipelineSample.ofFifo(100, 300 + i, 1000 * i));
            }
            CompressionStatistics stats = compressor.statistics();
            assertThat(stats.blocks(0)).isEqualTo(1);
            assertThat(stats.blocks(2)).isEqualTo(1);
            assertThat(stats.blocks(1)).isEqualTo(1);
            assertThat(stats.currentRung()).isEqualTo(0);
            assertThat(stats.totalBytesIn()).isEqualTo(3L * BLOCK);
            assertThat(stats.bytesOut(0)).isEqualTo(BLOCK + FrameFormat.BLOCK_HEADER_LENGTH);
            assertThat(stats.bytesOut(2)).isLessThan(stats.bytesOut(1));
            assertThat(stats.blocksByRung()).isEqualTo("raw=1 lz4=1 zstd:3=1");
        }
        assertThat(changes).as("every decision, numbered").containsExactly("0:0->2", "1:2->1", "2:1->0");
        Observation second = controller.observations().get(1);
        assertThat(second.rung()).isEqualTo(2);
        assertThat(second.topRung()).isEqualTo(2);
        assertThat(second.fifoGrowth()).isEqualTo(201 + FrameFormat.BLOCK_HEADER_LENGTH + second.storedLength());
        assertThat(second.uncompressedLength()).isEqualTo(BLOCK);
        assertThat(second.storedLength()).isLessThan(BLOCK / 2);
        assertThat(second.drainedBytes()).isEqualTo(1000);
        assertThat(second.incompressible()).isFalse();
    }

    @Test
    void storesIncompressibleBlocksRawAndBacksOffBeforeTryingAgain() {
        ScriptedController controller = new ScriptedController(3);
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3,zstd:19").blockSize(BLOCK)
                .controller(() -> controller).build();
        byte[] random = DataKind.RANDOM.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        int blocks = 200;

        try (AdaptiveCompressor compressor = new AdaptiveCompressor(options)) {
            for (int i = 0; i < blocks; i++) {
                assertThat(compressor.compressBlock(random, 0, BLOCK, frame, 0)).isEqualTo(BLOCK + FrameFormat.BLOCK_HEADER_LENGTH);
                compressor.update(PipelineSample.ofFifo(0, 0, 0));
            }
            CompressionStatistics stats = compressor.statistics();
            assertThat(stats.blocks(0)).isEqualTo(blocks);
            assertThat(stats.incompressibleBlocks()).isEqualTo(blocks);
        }
        assertThat(controller.observations()).allMatch(Observation::incompressible);
        // Retries come after 1, 2, 4, ... 64 skipped blocks: about 8 tries in 200 blocks, not 200.
        long tried = controller.observations().stream().filter(o -> o.compressNanos() > 50_000).count();
        assertThat(tried).isLessThan(20);
    }

    @Test
    void triesABlockThatLooksCompressibleWhileBackingOff() {
        byte[] text = DataKind.TEXT.generate(BLOCK);
        assertThat(rungOfBlockAfterRandom(text, true)).as("text after random data is compressed at once").isEqualTo(3);
    }

    @Test
    void triesEveryBlockAfterIncompressibleOnesWhenTheControllerSaysTryingIsFree() {
        // Random bytes repeated: compressible through matches, though every byte value is as
        // frequent as in random data, so only trying the codec finds out.
        byte[] repeats = new byte[BLOCK];
        byte[] record = DataKind.RANDOM.generate(4096);
        for (int i = 0; i < BLOCK; i += record.length) {
            System.arraycopy(record, 0, repeats, i, Math.min(record.length, BLOCK - i));
        }
        assertThat(rungOfBlockAfterRandom(repeats, true)).as("backing off: the block is skipped").isEqualTo(0);
        assertThat(rungOfBlockAfterRandom(repeats, false)).as("not backing off: the block is compressed").isEqualTo(3);
    }

    /** Where the engine stores {@code block} after 20 random ones, at a controller that always asks for rung 3. */
    private static int rungOfBlockAfterRandom(byte[] block, boolean skipAfterIncompressible) {
        ScriptedController script = new ScriptedController(3);
        LevelController controller = new LevelController() {
            @Override
            public int initialRung(Ladder ladder) {
                return script.initialRung(ladder);
            }

            @Override
            public Decision decide(Observation observation) {
                return script.decide(observation);
            }

            @Override
            public boolean skipAfterIncompressible() {
                return skipAfterIncompressible;
            }
        };
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3,zstd:19").blockSize(BLOCK)
                .controller(() -> controller).build();
        byte[] random = DataKind.RANDOM.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        try (AdaptiveCompressor compressor = new AdaptiveCompressor(options)) {
            for (int i = 0; i < 20; i++) {
                compressor.compressBlock(random, 0, BLOCK, frame, 0);
                compressor.update(PipelineSample.ofFifo(0, 0, 0));
            }
            compressor.compressBlock(block, 0, BLOCK, frame, 0);
            CompressionStatistics stats = compressor.statistics();
            return stats.blocks(3) == 1 ? 3 : stats.blocks(0) == 21 ? 0 : -1;
        }
    }

    @Test
    void aQueuedFrameCompressedAgainDecodesToItsBlockAndMovesInTheStatistics() throws Exception {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3").blockSize(BLOCK)
                .controller(() -> new FixedController(1)).build();
        byte[] text = DataKind.TEXT.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        byte[] again = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        byte[] random = DataKind.RANDOM.generate(BLOCK);

        try (AdaptiveCompressor compressor = new AdaptiveCompressor(options, 42)) {
            int lz4 = compressor.compressBlock(text, 0, BLOCK, frame, 0);
            assertThat(compressor.recompressibleRungOfLastBlock()).isEqualTo(1);
            assertThat(compressor.recompressFrame(frame, 0, lz4, 1, 0, again, 0)).as("raw is never smaller")
                    .isEqualTo(-1);
            int zstd = compressor.recompressFrame(frame, 0, lz4, 1, 2, again, 0);

            assertThat(zstd).isPositive().isLessThan(lz4);
            CompressionStatistics stats = compressor.statistics();
            assertThat(stats.blocksByRung()).isEqualTo("zstd:3=1");
            assertThat(stats.bytesOut(2)).isEqualTo(zstd);
            assertThat(stats.totalBytesIn()).isEqualTo(BLOCK);
            assertThat(stats.recompressedBlocks()).isEqualTo(1);
            assertThat(decodeFrame(again, zstd, 42)).isEqualTo(text);

            // The block just compressed, from its own bytes, before its frame is queued.
            int lz4Again = compressor.compressBlock(text, 0, BLOCK, frame, 0);
            assertThat(lz4Again).isEqualTo(lz4);
            assertThat(compressor.recompressLastBlock(text, 0, BLOCK, 2, again, 0)).isEqualTo(zstd);
            assertThat(compressor.recompressibleRungOfLastBlock()).isEqualTo(2);
            assertThat(compressor.statistics().blocksByRung()).isEqualTo("zstd:3=2");
            assertThat(compressor.statistics().recompressedBlocks()).isEqualTo(2);

            compressor.compressBlock(random, 0, BLOCK, frame, 0);
            assertThat(compressor.recompressibleRungOfLastBlock()).as("did not shrink").isEqualTo(-1);
            assertThatThrownBy(() -> compressor.recompressLastBlock(random, 0, BLOCK, 2, again, 0))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theControllerIsToldWhatEachFrameCompressedAgainTookAtItsNewRung() throws Exception {
        HoldingController listening = new HoldingController(1, 1);
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3").blockSize(BLOCK)
                .controller(() -> listening).build();
        byte[] text = DataKind.TEXT.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        byte[] again = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];

        try (AdaptiveCompressor compressor = new AdaptiveCompressor(options, 42)) {
            int lz4 = compressor.compressBlock(text, 0, BLOCK, frame, 0);
            compressor.recompressFrame(frame, 0, lz4, 1, 2, again, 0);
            compressor.compressBlock(text, 0, BLOCK, frame, 0);
            compressor.recompressLastBlock(text, 0, BLOCK, 2, again, 0);
        }

        assertThat(listening.told).containsExactly("2:" + BLOCK + ":true", "2:" + BLOCK + ":true");
    }

    @Test
    void queuedFramesAreLeftAsTheyAreUnlessTheControllerAsksAndNeverWithHistories() {
        LevelController climbs = recompressingTo(2);
        LevelController descends = recompressingTo(0);
        AdaptiveCompressionOptions.Builder options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3").blockSize(BLOCK);

        try (AdaptiveCompressor fixed = new AdaptiveCompressor(options.controller(() -> new FixedController(2)).build());
                AdaptiveCompressor asks = new AdaptiveCompressor(options.controller(() -> climbs).build());
                AdaptiveCompressor historic = new AdaptiveCompressor(options.history(true).build());
                AdaptiveCompressor wrong = new AdaptiveCompressor(
                        options.history(false).controller(() -> descends).build())) {
            assertThat(fixed.recompressRung(1)).isEqualTo(1);
            assertThat(asks.recompressRung(1)).isEqualTo(2);
            assertThat(historic.recompressRung(1)).isEqualTo(1);
            assertThatThrownBy(() -> wrong.recompressRung(1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("down to rung 0");
        }
    }

    /** Holds rung 2 and answers {@code rung} for every queued frame. */
    private static LevelController recompressingTo(int rung) {
        return new HoldingController(2, rung);
    }

    /**
     * Holds one rung, answers one rung for every queued frame, and records what each frame
     * compressed again took, as "rung:bytes:whether any time was measured".
     */
    private static final class HoldingController implements LevelController {
        private final int held;
        private final int recompressTo;
        final List<String> told = new ArrayList<>();

        HoldingController(int held, int recompressTo) {
            this.held = held;
            this.recompressTo = recompressTo;
        }

        @Override
        public int initialRung(Ladder ladder) {
            return held;
        }

        @Override
        public Decision decide(Observation observation) {
            return Decision.of(held, Reason.FIXED);
        }

        @Override
        public int recompressRung(int storedRung) {
            return recompressTo;
        }

        @Override
        public void recompressed(int rung, int uncompressedLength, long compressNanos) {
            told.add(rung + ":" + uncompressedLength + ":" + (compressNanos > 0));
        }
    }

    /** The block in a frame an engine with {@code salt} wrote, decoded and checked. */
    private static byte[] decodeFrame(byte[] frame, int length, int salt) throws Exception {
        BlockHeader header = new BlockHeader().parse(frame, 0, salt, BLOCK, 0);
        assertThat(FrameFormat.BLOCK_HEADER_LENGTH + header.storedLength()).isEqualTo(length);
        byte[] block = new byte[header.uncompressedLength()];
        try (BlockDecoder decoder = new BlockDecoder()) {
            decoder.decode(header, frame, FrameFormat.BLOCK_HEADER_LENGTH, block, 0, 0);
        }
        return block;
    }

    @Test
    void rejectsBlocksLargerThanConfiguredAndControllersThatLeaveTheLadder() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4").blockSize(1024)
                .maxBlockSize(1024).controller(() -> new FixedController(0)).build();
        try (AdaptiveCompressor compressor = new AdaptiveCompressor(options)) {
            assertThatThrownBy(() -> compressor.compressBlock(new byte[2048], 0, 2048, new byte[4096], 0))
                    .hasMessageContaining("block length must be in [1, 1024]");
        }
        LevelController outside = new LevelController() {
            @Override
            public int initialRung(Ladder ladder) {
                return 0;
            }

            @Override
            public Decision decide(Observation observation) {
                return Decision.of(5, Reason.FIXED);
            }
        };
        AdaptiveCompressionOptions bad = options.toBuilder().controller(() -> outside).build();
        try (AdaptiveCompressor compressor = new AdaptiveCompressor(bad)) {
            compressor.compressBlock(new byte[10], 0, 10, new byte[64], 0);
            assertThatThrownBy(() -> compressor.update(PipelineSample.ofFifo(0, 0, 0))).hasMessageContaining("outside the ladder");
        }
        assertThatThrownBy(() -> AdaptiveCompressionOptions.builder().blockSize(100)).hasMessageContaining("blockSize");
    }

    @Test
    void leavingRawPayloadsInPlaceWritesTheSameFramesWithoutCopyingRawBlocks() {
        byte[] text = DataKind.TEXT.generate(BLOCK);
        byte[] random = DataKind.RANDOM.generate(BLOCK);
        int salt = 0x5EED;
        for (int rung = 0; rung <= 1; rung++) {
            int fixed = rung;
            AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4").blockSize(BLOCK)
                    .controller(() -> new FixedController(fixed)).build();
            try (AdaptiveCompressor copying = new AdaptiveCompressor(options, salt);
                    AdaptiveCompressor leaving = new AdaptiveCompressor(options, salt)) {
                for (byte[] block : new byte[][] {text, random}) {
                    byte[] expected = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
                    int frameLength = copying.compressBlock(block, 0, BLOCK, expected, 0);
                    byte[] written = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
                    int writtenLength = leaving.compressBlockLeavingRawPayload(block, 0, BLOCK, written, 0);

                    boolean storedRaw = fixed == 0 || block == random;
                    if (storedRaw) {
                        assertThat(writtenLength).as("rung %d: only the header", fixed).isEqualTo(FrameFormat.BLOCK_HEADER_LENGTH);
                        System.arraycopy(block, 0, written, FrameFormat.BLOCK_HEADER_LENGTH, BLOCK);
                        writtenLength += BLOCK;
                    }
                    assertThat(writtenLength).isEqualTo(frameLength);
                    assertThat(Arrays.copyOf(written, writtenLength)).isEqualTo(Arrays.copyOf(expected, frameLength));
                    copying.update(PipelineSample.ofFifo(0, 0, 0));
                    leaving.update(PipelineSample.ofFifo(0, 0, 0));
                }
                assertThat(leaving.statistics().bytesOut(0)).isEqualTo(copying.statistics().bytesOut(0));
            }
        }
    }
}
