package org.adaptivecompress.netty;

import java.io.IOException;

/**
 * The receiver-budget handshake did not complete: the peer sent no budget frame in time, or the
 * channel closed first. Writes made before the handshake fail with it; a peer that sent
 * something other than a budget frame fails the channel with the core's typed
 * {@link org.adaptivecompress.format.FrameFormatException} instead.
 */
public final class BudgetHandshakeException extends IOException {
    private static final long serialVersionUID = 1L;

    /** An exception whose message says what did not happen. */
    public BudgetHandshakeException(String message) {
        super(message);
    }
}
