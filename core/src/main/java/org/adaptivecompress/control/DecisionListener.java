package org.adaptivecompress.control;

/**
 * Told every decision a stream's controller makes, with what it saw: why each block got its
 * rung, at run time. Set on the builders ({@code AdaptiveOutputStream.builder().listener(...)},
 * {@code AdaptiveCompressionOptions}, the Kafka and Hadoop configurations).
 *
 * <p>Called on the compressing thread after every block, so it must be quick (hand the values
 * to a queue or a counter) and must not throw; a listener that throws fails the write.
 */
@FunctionalInterface
public interface DecisionListener {

    /** A listener that does nothing: the default. */
    DecisionListener NONE = (observation, decision) -> { };

    /**
     * The controller chose {@code decision} for the next block after {@code observation}, which
     * tells what the block just compressed (its number, {@link Observation#blockNumber()}, and rung,
     * {@link Observation#rung()}) and the pipeline showed.
     */
    void decided(Observation observation, Decision decision);
}
