package org.adaptivecompress.cli;

/**
 * What {@code send} and {@code receive} say to each other over TCP: the receiver first writes
 * its receiver budget (a budget frame, docs/FORMAT.md), and the sender, which waits for it at
 * most {@link #BUDGET_TIMEOUT_MILLIS}, compresses only inside it. The sender then writes one
 * {@code .adc} stream and half-closes; the receiver decodes and verifies all of it, refusing
 * what is outside its budget, writes it out, and only then answers {@link #ACK}. A sender that
 * reads anything else, or nothing, reports the transfer as failed, so "sent" means "arrived
 * intact".
 */
final class TransferProtocol {

    /** The receiver's one-byte answer after a complete, verified transfer (ASCII ACK). */
    static final int ACK = 0x06;

    /** How long a sender waits for the receiver's budget: far longer than a round trip, short of a hang. */
    static final int BUDGET_TIMEOUT_MILLIS = 10_000;

    private TransferProtocol() {}
}
