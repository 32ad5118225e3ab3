package org.adaptivecompress.benchmarks.scenario;

/**
 * One stretch of a scenario's data, all of one kind.
 *
 * @param offset where it starts in the scenario's bytes
 * @param length its length, cut short if the scenario ends inside it
 * @param kind what it is
 * @param seed what its bytes are made from
 */
public record Piece(long offset, int length, PieceKind kind, long seed) {}
