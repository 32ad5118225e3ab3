/**
 * The sending and receiving agents: long-lived JVMs the link benchmark's driver starts inside
 * the link's network namespace ({@code ip netns exec NS java -cp JAR ... agent sender|receiver})
 * and drives over their standard input and output.
 *
 * <h2>Protocol</h2>
 * One line per message, words separated by single spaces; an agent's standard output carries
 * nothing else (diagnostics go to standard error). {@link Request} and {@link Reply} encode and
 * parse every line.
 * <pre>
 * agent starts                          -&gt; hello ROLE
 * prepare SCENARIO OFFSET LENGTH        -&gt; ready MILLIS           (both agents)
 * receive CONTENDER TIMEOUT_MS MARKS SAMPLE_EVERY                  (receiver)
 *                                       -&gt; listening PORT
 *                                       -&gt; mark INDEX NANOS       (as it verifies MARKS[INDEX] bytes)
 *                                       -&gt; received END_NANOS BYTES VERDICT SAMPLES | failed MESSAGE
 * send CONTENDER PORT DEADLINE_MS       -&gt; sent START_NANOS WIRE_BYTES WRITES RUNGS BLOCKS
 *                                        | aborted START_NANOS WIRE_BYTES | failed MESSAGE   (sender)
 * quit, or the end of input             -&gt; the agent exits
 * </pre>
 * {@code prepare} makes the bytes of a scenario from an offset, outside any timing, and keeps
 * them for the transfers that follow. {@code MARKS} are verified-byte counts (comma-separated,
 * {@code -} for none) at which the receiver reports progress, so the driver can change the link
 * rate keyed to the data; {@code SAMPLE_EVERY} asks for the time at each multiple of that many
 * verified bytes (0 for none). {@code VERDICT} is {@code ok}, {@code short} or
 * {@code mismatch@POSITION}. {@code DEADLINE_MS} (0 for none) cuts a transfer off: the sender
 * closes its socket and both agents are ready for the next command. {@code WRITES} are the
 * plain copy's times at each multiple of 128 KiB written ({@code -} for others), to set against
 * the receiver's {@code SAMPLES};
 * {@code RUNGS} is {@code seconds:rung,...} of rung changes and {@code BLOCKS} the blocks per
 * rung of our streams, {@code -} for others. Times are {@link System#nanoTime()} values, which
 * both agents read from the same clock (see {@link Reply.Received}).
 */
package org.adaptivecompress.benchmarks.link.agent;
