package org.adaptivecompress.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
