package org.adaptivecompress.testing.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.adaptivecompress.internal.format.FrameFormat;

/**
 * Damages a valid stream the way a hostile or careless peer would, knowing the frame format: a
 * byte mutator alone would almost never get past the salted header checks, so header fields are
 * rewritten with their check recomputed, and frames are dropped, repeated, moved, spliced from
 * another stream and embedded whole.
 *
 * <p>Nothing here forges what the format uses to catch damage beyond a header's own check: no
 * content CRC and no end-marker digest is ever recomputed. So whatever decodes without an error
 * must decode to the original bytes, and a reader that returns anything else returns wrong bytes.
 */
public final class FrameMutator {

    /** The kinds of damage, one picked per step. */
    enum Mutation {
        FLIP_BIT, SET_BYTE, BLOCK_HEADER_FIELD, STREAM_HEADER_FIELD, DROP_FRAME, REPEAT_FRAME, SWAP_FRAMES,
        TRUNCATE, INSERT_BYTES, PAYLOAD_GARBAGE, APPEND_GARBAGE, EMBED_STREAM, SPLICE_FRAME
    }

    private static final int[] INTERESTING = {0, 1, 2, 3, 4, 0x7F, 0x80, 0xFF, 255, 256, 4096, 65535, 65536,
        1 << 20, 4 << 20, (4 << 20) + 1, 64 << 20, (64 << 20) + 1, Integer.MAX_VALUE, -1, Integer.MIN_VALUE};

    private final CRC32C crc = new CRC32C();
    private final boolean concatenating;

    /**
     * @param concatenating whether the reader under test reads streams that follow the first
     *     one's end marker: then a valid stream is never appended whole, since the reader would
     *     rightly return its content too
     */
    public FrameMutator(boolean concatenating) {
        this.concatenating = concatenating;
    }

    /**
     * {@code stream} after one to four mutations drawn from {@code random}; {@code donors} are
     * other valid streams (other salts) to splice frames from and to embed.
     */
    public byte[] mutate(byte[] stream, List<byte[]> donors, Random random) {
        byte[] current = stream;
        int steps = 1 + random.nextInt(4);
        for (int i = 0; i < steps; i++) {
            Mutation m = Mutation.values()[random.nextInt(Mutation.values().length)];
            current = apply(m, current, donors.get(random.nextInt(donors.size())), random);
        }
        return current;
    }

    byte[] apply(Mutation m, byte[] s, byte[] donor, Random r) {
        if (s.length == 0) {
            return s;
        }
        List<int[]> frames = blockFrames(s);
        switch (m) {
            case FLIP_BIT: {
                byte[] out = s.clone();
                out[r.nextInt(out.length)] ^= (byte) (1 << r.nextInt(8));
                return out;
            }
            case SET_BYTE: {
                byte[] out = s.clone();
                out[r.nextInt(out.length)] = (byte) r.nextInt(256);
                return out;
            }
            case BLOCK_HEADER_FIELD:
                return frames.isEmpty() ? s : rewriteBlockHeader(s, frames.get(r.nextInt(frames.size()))[0], r);
            case STREAM_HEADER_FIELD:
                return rewriteStreamHeader(s, r);
            case DROP_FRAME:
                return frames.isEmpty() ? s : cut(s, frames.get(r.nextInt(frames.size())));
            case REPEAT_FRAME: {
                if (frames.isEmpty()) {
                    return s;
                }
                int[] f = frames.get(r.nextInt(frames.size()));
                return insert(s, f[1], Arrays.copyOfRange(s, f[0], f[1]));
            }
            case SWAP_FRAMES:
                return frames.size() < 2 ? s : swap(s, frames.get(r.nextInt(frames.size())),
                        frames.get(r.nextInt(frames.size())));
            case TRUNCATE:
                return Arrays.copyOf(s, r.nextInt(s.length));
            case INSERT_BYTES: {
                byte[] junk = new byte[1 + r.nextInt(64)];
                r.nextBytes(junk);
                return insert(s, r.nextInt(s.length + 1), junk);
            }
            case PAYLOAD_GARBAGE: {
                byte[] out = s.clone();
                int from = r.nextInt(out.length);
                int to = Math.min(out.length, from + 1 + r.nextInt(256));
                for (int i = from; i < to; i++) {
                    out[i] = (byte) r.nextInt(256);
                }
                return out;
            }
            case APPEND_GARBAGE: {
                byte[] junk = new byte[1 + r.nextInt(64)];
                r.nextBytes(junk);
                return insert(s, s.length, r.nextBoolean() || concatenating ? junk : donor);
            }
            case EMBED_STREAM:
                return frames.isEmpty() ? s : insert(s, frames.get(r.nextInt(frames.size()))[r.nextInt(2)], donor);
            case SPLICE_FRAME: {
                List<int[]> theirs = blockFrames(donor);
                if (theirs.isEmpty()) {
                    return s;
                }
                int[] f = theirs.get(r.nextInt(theirs.size()));
                int at = frames.isEmpty() ? s.length : frames.get(r.nextInt(frames.size()))[0];
                return insert(s, at, Arrays.copyOfRange(donor, f[0], f[1]));
            }
            default:
                throw new AssertionError(m);
        }
    }

    /**
     * The block frames ({from, to}) of the stream that starts at offset 0, as far as its
     * headers can be followed; none if it does not start with a stream header.
     */
    static List<int[]> blockFrames(byte[] s) {
        List<int[]> frames = new ArrayList<>();
        if (s.length < FrameFormat.STREAM_HEADER_LENGTH || FrameFormat.getInt(s, 0) != FrameFormat.MAGIC) {
            return frames;
        }
        int headerLength = headerLength(s);
        int at = FrameFormat.STREAM_HEADER_LENGTH;
        while (at + headerLength <= s.length && (s[at] & 0xFF) != FrameFormat.END_OF_STREAM) {
            long end = at + (long) headerLength + FrameFormat.getInt(s, at + 8);
            if (end > s.length || end <= at) {
                break;
            }
            frames.add(new int[] {at, (int) end});
            at = (int) end;
        }
        return frames;
    }

    /** The block header length of the stream at offset 0, as its version byte says. */
    private static int headerLength(byte[] s) {
        return FrameFormat.version(s, 0) == FrameFormat.VERSION_1 ? FrameFormat.BLOCK_HEADER_LENGTH_V1
                : FrameFormat.BLOCK_HEADER_LENGTH;
    }

    /** Sets one field of the block header at {@code at} and recomputes its check with the stream's salt. */
    private byte[] rewriteBlockHeader(byte[] s, int at, Random r) {
        byte[] out = s.clone();
        int checked = headerLength(s) - 4;
        int field = r.nextInt(checked > 16 ? 8 : 7);
        int value = r.nextBoolean() ? INTERESTING[r.nextInt(INTERESTING.length)] : r.nextInt();
        switch (field) {
            // codec id; never the end marker's: a forged end marker is forging, not damage
            case 0: out[at] = (byte) (r.nextBoolean() ? r.nextInt(6) : Math.floorMod(value, 0xFF)); break;
            case 1: out[at + 1] = (byte) (r.nextBoolean() ? 1 << r.nextInt(8) : value); break; // flags
            case 2: out[at + 2] = (byte) value; break; // level
            case 3: out[at + 3] = (byte) (r.nextBoolean() ? r.nextInt(18) : value); break; // history id
            case 4: FrameFormat.putInt(out, at + 4, nudge(FrameFormat.getInt(out, at + 4), value, r)); break;
            case 5: FrameFormat.putInt(out, at + 8, nudge(FrameFormat.getInt(out, at + 8), value, r)); break;
            case 6: FrameFormat.putInt(out, at + 12, value); break; // content CRC: never the right one by design
            default: // stream offset: a neighbour's, or off by a little or a lot
                long offset = FrameFormat.getLong(out, at + 16);
                FrameFormat.putLong(out, at + 16, r.nextBoolean() ? offset + r.nextInt(2 * 4096 + 1) - 4096
                        : r.nextBoolean() ? offset ^ (1L << r.nextInt(64)) : value);
                break;
        }
        if (field == 6 && FrameFormat.getInt(out, at + 12) == FrameFormat.getInt(s, at + 12)) {
            out[at + 12] ^= 1;
        }
        recheck(out, at, checked, FrameFormat.getInt(s, 8));
        return out;
    }

    /** An off-by-a-little length as often as an interesting one. */
    private static int nudge(int current, int value, Random r) {
        return r.nextBoolean() ? value : current + r.nextInt(9) - 4;
    }

    private static byte[] rewriteStreamHeader(byte[] s, Random r) {
        if (s.length < FrameFormat.STREAM_HEADER_LENGTH) {
            return s;
        }
        byte[] out = s.clone();
        switch (r.nextInt(4)) {
            case 0: out[4] = (byte) r.nextInt(4); break; // version
            case 1: out[5] ^= (byte) (1 << r.nextInt(8)); break; // flags, history among them
            case 2: out[6 + r.nextInt(2)] = (byte) (1 + r.nextInt(255)); break; // reserved
            default: out[8 + r.nextInt(4)] ^= (byte) (1 + r.nextInt(255)); break; // salt
        }
        return out;
    }

    private void recheck(byte[] header, int at, int checked, int salt) {
        FrameFormat.putInt(header, at + checked, FrameFormat.headerCheck(header, at, checked, salt, crc));
    }

    private static byte[] cut(byte[] s, int[] f) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length);
        out.write(s, 0, f[0]);
        out.write(s, f[1], s.length - f[1]);
        return out.toByteArray();
    }

    private static byte[] insert(byte[] s, int at, byte[] piece) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length + piece.length);
        out.write(s, 0, at);
        out.write(piece, 0, piece.length);
        out.write(s, at, s.length - at);
        return out.toByteArray();
    }

    private static byte[] swap(byte[] s, int[] a, int[] b) {
        if (a[0] == b[0]) {
            return s;
        }
        int[] first = a[0] < b[0] ? a : b;
        int[] second = a[0] < b[0] ? b : a;
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length);
        out.write(s, 0, first[0]);
        out.write(s, second[0], second[1] - second[0]);
        out.write(s, first[1], second[0] - first[1]);
        out.write(s, first[0], first[1] - first[0]);
        out.write(s, second[1], s.length - second[1]);
        return out.toByteArray();
    }
}
