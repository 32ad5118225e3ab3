package org.adaptivecompress.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.adaptivecompress.control.FixedController;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.internal.engine.BlockJob;
import org.adaptivecompress.internal.engine.FrameEncoder;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;

/** The engine split for parallel pipelines: plan in order, encode anywhere, record in order. */
class ParallelEngineTest {

    private static final int BLOCK = 32 * 1024;
    private static final int SALT = 0x5A17;

    @Test
    void framesEncodedOutOfOrderOnOtherEncodersEqualThoseOfCompressBlock() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3,xz:6").blockSize(BLOCK)
                .controller(() -> new ScriptedController(1, 2, 3, 0)).build();
        byte[] data = DataKind.MIXED.generate(8 * BLOCK);
        byte[][] expected = new byte[8][];
        try (AdaptiveCompressor sequential = new AdaptiveCompressor(options, SALT)) {
            for (int i = 0; i < 8; i++) {
                byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
                int n = sequential.compressBlock(data, i * BLOCK, BLOCK, frame, 0);
                sequential.update(PipelineSample.ofFifo(0, 0, 0));
                expected[i] = Arrays.copyOf(frame, n);
            }
        }

        try (AdaptiveCompressor engine = new AdaptiveCompressor(options, SALT);
                FrameEncoder even = engine.newFrameEncoder();
                FrameEncoder odd = engine.newFrameEncoder()) {
            for (int pair = 0; pair < 8; pair += 2) {
                // Plan two blocks before either is recorded, as a pipeline of two workers does,
                // then encode the second first.
                BlockJob first = new BlockJob();
                BlockJob second = new BlockJob();
                engine.planBlock(first, 2, BLOCK);
                engine.planBlock(second, 2, BLOCK);
                byte[] frame1 = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
                byte[] frame2 = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
                odd.encode(second, data, (pair + 1) * BLOCK, BLOCK, frame2, 0);
                even.encode(first, data, pair * BLOCK, BLOCK, frame1, 0);
                engine.recordBlock(first);
                engine.update(PipelineSample.ofFifo(0, 0, 0));
                engine.recordBlock(second);
                engine.update(PipelineSample.ofFifo(0, 0, 0));
                // Both blocks were planned at the rung chosen before the pair: every other rung.
                assertThat(Arrays.copyOf(frame1, first.frameLength())).isEqualTo(expected[pair]);
                assertThat(frame2[0]).as("block %d planned at the same rung", pair + 1).isEqualTo(expected[pair][0]);
            }
            assertThat(engine.statistics().totalBlocks()).isEqualTo(8);
            assertThat(engine.statistics().totalBytesIn()).isEqualTo(8L * BLOCK);
            assertThat(engine.statistics().workers()).isEqualTo(2);
        }
    }

    @Test
    void theControllerSeesEachBlocksPlannedRungAndItsTimeDividedByTheWorkers() {
        ScriptedController controller = new ScriptedController(2, 1, 0);
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3").blockSize(BLOCK)
                .controller(() -> controller).build();
        byte[] text = DataKind.TEXT.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        try (AdaptiveCompressor engine = new AdaptiveCompressor(options);
                FrameEncoder encoder = engine.newFrameEncoder()) {
            BlockJob a = new BlockJob();
            BlockJob b = new BlockJob();
            engine.planBlock(a, 4, BLOCK);
            engine.planBlock(b, 4, BLOCK);
            encoder.encode(a, text, 0, BLOCK, frame, 0);
            encoder.encode(b, text, 0, BLOCK, frame, 0);
            engine.recordBlock(a);
            engine.update(PipelineSample.ofFifo(0, 0, 0));
            assertThat(engine.currentRung()).isEqualTo(1);
            engine.recordBlock(b);
            engine.update(PipelineSample.ofFifo(0, 0, 0));

            Observation second = controller.observations().get(1);
            assertThat(second.rung()).as("the rung b was planned at, not the controller's latest").isEqualTo(2);
            assertThat(second.workers()).isEqualTo(4);
            assertThat(second.compressNanos()).isEqualTo(b.compressNanos / 4);
            assertThat(second.uncompressedLength()).isEqualTo(BLOCK);
            assertThat(second.storedLength()).isEqualTo(b.storedLength).isLessThan(BLOCK / 2);
            assertThat(second.toString()).contains("4 workers");
        }
    }

    @Test
    void theIncompressibleBackoffFollowsResultsRecordedInOrder() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4,zstd:3").blockSize(BLOCK)
                .controller(() -> new FixedController(2)).build();
        byte[] random = DataKind.RANDOM.generate(BLOCK);
        byte[] frame = new byte[AdaptiveCompressor.maxFrameLength(BLOCK)];
        int workers = 4;
        BlockJob[] inFlight = new BlockJob[workers];
        int tried = 0;
        try (AdaptiveCompressor engine = new AdaptiveCompressor(options);
                FrameEncoder encoder = engine.newFrameEncoder()) {
            for (int i = 0; i < workers; i++) {
                inFlight[i] = new BlockJob();
                engine.planBlock(inFlight[i], workers, BLOCK);
            }
            for (int block = 0; block < 200; block++) {
                BlockJob job = inFlight[block % workers];
                encoder.encode(job, random, 0, BLOCK, frame, 0);
                tried += job.skipped ? 0 : 1;
                assertThat(job.frameLength()).isEqualTo(BLOCK + FrameFormat.BLOCK_HEADER_LENGTH);
                engine.recordBlock(job);
                engine.update(PipelineSample.ofFifo(0, 0, 0));
                engine.planBlock(job, workers, BLOCK);
            }
            CompressionStatistics stats = engine.statistics();
            assertThat(stats.blocks(0)).isEqualTo(200);
            assertThat(stats.incompressibleBlocks()).isEqualTo(200);
        }
        // The blocks already in flight when a failure is recorded are tried too, then the backoff holds.
        assertThat(tried).isLessThan(40);
    }

    @Test
    void checksItsArguments() {
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().ladder("raw,lz4").blockSize(1024)
                .maxBlockSize(1024).build();
        AdaptiveCompressor engine = new AdaptiveCompressor(options);
        FrameEncoder encoder = engine.newFrameEncoder();
        BlockJob job = new BlockJob();
        assertThatThrownBy(() -> engine.planBlock(job, 0, 10)).hasMessageContaining("workers must be at least 1");
        assertThatThrownBy(() -> engine.planBlock(job, 1, 2048)).hasMessageContaining("block length must be in [1, 1024]");
        engine.planBlock(job, 1, 10);
        assertThatThrownBy(() -> encoder.encode(job, new byte[2048], 0, 2048, new byte[4096], 0))
                .hasMessageContaining("block length must be in [1, 1024]");
        assertThatThrownBy(() -> encoder.encode(job, new byte[20], 0, 20, new byte[64], 0))
                .hasMessageContaining("planned for a block of 10 bytes, not 20");
        assertThatThrownBy(() -> Observation.builder().workers(0)).hasMessageContaining("workers");
        assertThat(Observation.builder().build().workers()).isEqualTo(1);

        engine.close();
        assertThat(encoder.encode(job, new byte[10], 0, 10, new byte[64], 0))
                .as("an encoder outlives the engine that made it").isEqualTo(10 + FrameFormat.BLOCK_HEADER_LENGTH);
        encoder.close();
        encoder.close();
        assertThatThrownBy(() -> encoder.encode(job, new byte[10], 0, 10, new byte[64], 0))
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> engine.planBlock(job, 1, 10)).hasMessageContaining("closed");
    }
}
