package org.adaptivecompress.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.adaptivecompress.codec.CodecType;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.DecompressionLimitException;
import org.adaptivecompress.format.OversizedBlockException;
import org.adaptivecompress.internal.format.FrameFormat;
import org.adaptivecompress.testing.DataKind;
import org.adaptivecompress.testing.Frames;
import org.adaptivecompress.testing.ScriptedController;
import org.junit.jupiter.api.Test;

/** A writer kept inside a reader's budget, and the reader refusing what is outside it. */
class ReceiverBudgetStreamTest {

    private static final byte[] TEXT = DataKind.jsonEvents(1 << 20, 11);

    @Test
    void aWriterWithinTheBudgetUsesOnlyAdmittedRungsAndTheReaderAcceptsIt() throws IOException {
        ReceiverBudget budget = ReceiverBudget.parse("lz4,zstd:3,window=0,block=64k");
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:6").history(true)
                .blockSize(256 << 10).within(budget).build(wire)) {
            out.write(TEXT);
        }
        byte[] stream = wire.toByteArray();
        List<Integer> starts = Frames.starts(stream);
        assertThat(stream[FrameFormat.STREAM_HEADER_LENGTH - 6]).as("no histories").isZero();
        for (int at : starts.subList(0, starts.size() - 1)) {
            assertThat(stream[at] & 0xFF).isIn(CodecType.RAW.id(), CodecType.ZSTD.id());
            assertThat((int) stream[at + 2]).isLessThanOrEqualTo(3);
            assertThat(FrameFormat.getInt(stream, at + 4)).isLessThanOrEqualTo(64 << 10);
        }
        assertThat(starts).hasSizeGreaterThan(16);
        assertThat(read(wire.toByteArray(), budget)).isEqualTo(TEXT);
    }

    @Test
    void theReaderRefusesACodecOrLevelOutsideItsBudget() throws IOException {
        byte[] xz = write("fixed:6", false);
        Throwable e = catchThrowable(() -> read(xz, ReceiverBudget.parse("lz4,zstd")));
        assertThat(e).isInstanceOf(DecompressionLimitException.class).hasMessageContaining("xz at level 6");

        byte[] zstd15 = write("fixed:5", false);
        assertThat(catchThrowable(() -> read(zstd15, ReceiverBudget.parse("zstd:9"))))
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("zstd at level 15");
        assertThat(read(zstd15, ReceiverBudget.parse("zstd:15"))).isEqualTo(TEXT);
    }

    @Test
    void theReaderRefusesHistoriesALargerWindowOrALongerBlock() throws IOException {
        byte[] history = write("fixed:3", true);
        assertThat(catchThrowable(() -> read(history, ReceiverBudget.parse("any,window=0"))))
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("histories");
        assertThat(read(history, ReceiverBudget.parse("any,window=2m"))).isEqualTo(TEXT);
        assertThat(catchThrowable(() -> read(history, ReceiverBudget.parse("any,window=1m"))))
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("window");
        assertThat(catchThrowable(() -> read(history, ReceiverBudget.parse("any,block=64k"))))
                .isInstanceOf(OversizedBlockException.class);
    }

    @Test
    void theReaderRefusesMoreHistoriesThanItsMemoryHolds() throws IOException {
        // Every rung in turn: each zstd rung and xz opens a history, five in all, of 2 MiB.
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> ScriptedController.everyRung(7))
                .history(true).historyWindow(2 << 20).build(wire)) {
            out.write(TEXT);
        }
        // 4 MiB blocks twice and 4 MiB for the stream, then 4.5 MiB a history: 32 MiB holds four, 36 MiB five.
        assertThat(catchThrowable(() -> read(wire.toByteArray(), ReceiverBudget.parse("any,memory=32m"))))
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("one more than the 4 histories");
        assertThat(read(wire.toByteArray(), ReceiverBudget.parse("any,memory=36m"))).isEqualTo(TEXT);
        assertThat(catchThrowable(() -> read(wire.toByteArray(), ReceiverBudget.parse("any,memory=14m"))))
                .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("not one fits");
    }

    @Test
    void aWriterWithinAMemoryBudgetIsReadWithinIt() throws IOException {
        ReceiverBudget budget = ReceiverBudget.parse("any,memory=24m");
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(() -> ScriptedController.everyRung(7))
                .history(true).historyWindow(8 << 20).within(budget).build(wire)) {
            out.write(TEXT);
        }
        assertThat(read(wire.toByteArray(), budget)).isEqualTo(TEXT);
    }

    private static byte[] write(String controller, boolean history) throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller(controller).history(history)
                .build(wire)) {
            out.write(TEXT);
        }
        return wire.toByteArray();
    }

    private static byte[] read(byte[] wire, ReceiverBudget budget) throws IOException {
        try (AdaptiveInputStream in = AdaptiveInputStream.builder().accept(budget)
                .build(new ByteArrayInputStream(wire))) {
            return in.readAllBytes();
        }
    }
}
