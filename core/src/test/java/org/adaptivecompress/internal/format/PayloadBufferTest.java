package org.adaptivecompress.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.adaptivecompress.format.TruncatedStreamException;
import org.adaptivecompress.internal.format.PayloadBuffer;
import org.junit.jupiter.api.Test;

class PayloadBufferTest {

    @Test
    void aBufferWithRoomLeftIsKept() {
        byte[] buffer = new byte[100];
        assertThat(PayloadBuffer.roomFor(buffer, 99, 1 << 20)).isSameAs(buffer);
        assertThat(PayloadBuffer.roomFor(buffer, 100, 100)).isSameAs(buffer);
    }

    @Test
    void growsFromTheFirstAllocationByDoublingUpToTheTotal() {
        int total = 200_000;
        byte[] buffer = PayloadBuffer.roomFor(new byte[0], 0, total);
        assertThat(buffer).hasSize(PayloadBuffer.FIRST_ALLOCATION);
        buffer[PayloadBuffer.FIRST_ALLOCATION - 1] = 42;

        buffer = PayloadBuffer.roomFor(buffer, buffer.length, total);
        assertThat(buffer).hasSize(2 * PayloadBuffer.FIRST_ALLOCATION);
        assertThat(buffer[PayloadBuffer.FIRST_ALLOCATION - 1]).as("bytes filled are kept").isEqualTo((byte) 42);

        buffer = PayloadBuffer.roomFor(buffer, buffer.length, total);
        assertThat(buffer).hasSize(total);
    }

    @Test
    void aSmallPayloadGetsNoMoreThanItNeeds() {
        assertThat(PayloadBuffer.roomFor(new byte[0], 0, 20)).hasSize(20);
    }

    @Test
    void refusesAFillThatDoesNotFit() {
        assertThatThrownBy(() -> PayloadBuffer.roomFor(new byte[10], 11, 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PayloadBuffer.roomFor(new byte[10], 5, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsAPayloadGrowingTheBufferAndNamesWhereATruncatedOneEnds() throws Exception {
        byte[] payload = new byte[150_000];
        payload[149_999] = 7;
        byte[] read = PayloadBuffer.read(new java.io.ByteArrayInputStream(payload), new byte[0], payload.length, 40);
        assertThat(read).hasSize(payload.length).isEqualTo(payload);

        assertThatThrownBy(() -> PayloadBuffer.read(new java.io.ByteArrayInputStream(payload, 0, 100), new byte[0],
                payload.length, 40)).isInstanceOf(TruncatedStreamException.class)
                .hasMessage("stream ends at offset 140 inside a block payload (100 of 150000 bytes present)");
    }
}
