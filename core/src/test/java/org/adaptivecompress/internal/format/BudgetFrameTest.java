package org.adaptivecompress.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.adaptivecompress.engine.ReceiverBudget;
import org.adaptivecompress.format.BadMagicException;
import org.adaptivecompress.format.CorruptFrameException;
import org.adaptivecompress.format.FrameFormatException;
import org.adaptivecompress.format.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

/** The budget frame's bytes, pinned by the vector in docs/FORMAT.md, and its checks. */
class BudgetFrameTest {

    /** docs/FORMAT.md, "Budget frame": {@code lz4,zstd:9,window=2m,block=1m}. */
    static final String VECTOR = "41644f4201000021"
            + "7261772c6c7a342c7a7374643a392c77696e646f773d326d2c626c6f636b3d316d" + "ff0fe449";

    private static final ReceiverBudget BUDGET = ReceiverBudget.parse("lz4,zstd:9,window=2m,block=1m");

    @Test
    void encodesAsTheDocumentedVector() throws Exception {
        byte[] frame = BudgetFrame.encode(BUDGET);
        assertThat(hex(frame)).isEqualTo(VECTOR);
        assertThat(BudgetFrame.frameLength(frame, 0)).isEqualTo(frame.length);
        assertThat(BudgetFrame.decode(frame, 0)).isEqualTo(BUDGET);
    }

    @Test
    void readsExactlyOneFrameFromAStream() throws Exception {
        byte[] frame = BudgetFrame.encode(ReceiverBudget.defaults());
        byte[] withMore = Arrays.copyOf(frame, frame.length + 3);
        ByteArrayInputStream in = new ByteArrayInputStream(withMore);
        assertThat(BudgetFrame.read(in)).isEqualTo(ReceiverBudget.defaults());
        assertThat(in.available()).isEqualTo(3);
        assertThatThrownBy(() -> BudgetFrame.read(new ByteArrayInputStream(frame, 0, frame.length - 1)))
                .isInstanceOf(EOFException.class);
    }

    @Test
    void refusesWhatIsNotAValidBudgetFrame() {
        byte[] frame = BudgetFrame.encode(BUDGET);
        byte[] stream = new byte[16];
        FrameFormat.writeStreamHeader(stream, 0, 1);
        assertThatThrownBy(() -> BudgetFrame.frameLength(stream, 0)).isInstanceOf(BadMagicException.class)
                .hasMessageContaining("receiver budget");

        byte[] version = frame.clone();
        version[4] = 2;
        assertThatThrownBy(() -> BudgetFrame.decode(version, 0)).isInstanceOf(UnsupportedVersionException.class);

        byte[] flipped = frame.clone();
        flipped[12] ^= 1;
        assertThatThrownBy(() -> BudgetFrame.decode(flipped, 0)).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("CRC32C");

        byte[] huge = frame.clone();
        huge[6] = 0x7F;
        assertThatThrownBy(() -> BudgetFrame.frameLength(huge, 0)).isInstanceOf(CorruptFrameException.class);
    }

    @Test
    void aSpecThatDoesNotParseIsACorruptFrame() {
        byte[] frame = BudgetFrame.encode(BUDGET);
        frame[8] = 'q'; // "qaw,...": no such codec
        FrameFormat.putInt(frame, frame.length - 4, crc(frame, frame.length - 4));
        assertThatThrownBy(() -> BudgetFrame.decode(frame, 0)).isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("does not parse");
    }

    @Test
    void mutatedFramesDecodeOrFailTyped() {
        Random random = new Random(57);
        byte[][] valid = {BudgetFrame.encode(BUDGET), BudgetFrame.encode(ReceiverBudget.defaults()),
            BudgetFrame.encode(ReceiverBudget.parse("xz:3,deflate,window=0,block=256"))};
        for (int i = 0; i < 200_000; i++) {
            byte[] frame = valid[random.nextInt(valid.length)].clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                frame[random.nextInt(frame.length)] = (byte) random.nextInt(256);
            }
            if (random.nextInt(4) == 0) {
                // the check recomputed, so the spec parser sees the damage
                FrameFormat.putInt(frame, frame.length - 4, crc(frame, frame.length - 4));
            }
            byte[] input = random.nextInt(8) == 0 ? Arrays.copyOf(frame, random.nextInt(frame.length)) : frame;
            try {
                BudgetFrame.read(new ByteArrayInputStream(input));
            } catch (FrameFormatException | EOFException e) {
                // typed: what a reader of untrusted frames expects
            } catch (Exception e) {
                throw new AssertionError("input " + i + " fails untyped: " + e, e);
            }
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }

    private static int crc(byte[] src, int length) {
        CRC32C crc = new CRC32C();
        crc.update(src, 0, length);
        return (int) crc.getValue();
    }
}
