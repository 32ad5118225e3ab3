package org.adaptivecompress.cli;

/**
 * What {@code send} and {@code receive} say to each other over TCP: the sender writes one
 * {@code .adc} stream and half-closes; the receiver decodes and verifies all of it, writes it
 * out, and only then answers {@link #ACK}. A sender that reads anything else, or nothing,
 * reports the transfer as failed, so "sent" means "arrived intact".
 */
final class TransferProtocol {

    /** The receiver's one-byte answer after a complete, verified transfer (ASCII ACK). */
    static final int ACK = 0x06;

    private TransferProtocol() {}
}
