package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The emulated link's rate steps. Times are asserted only as lower bounds, which a slow or busy
 * machine can only make longer.
 */
class LinkTransferTest {

    @Test
    void aRateStepAppliesToWhatTheSocketBuffersHeldWhenItCame() throws Exception {
        // 4 MiB of random bytes, sent raw: the first quarter at 1 GB/s, the rest at 4 MB/s once the
        // receiver has verified that quarter. Loopback's socket buffers take megabytes at once, so
        // with the sender's bucket alone most of the slow stretch crossed at the fast rate; paced at
        // both ends, its 3 MiB take 0.79 s, less what crosses before the step lands (the buckets'
        // 40 KB and a 64 KiB read): over 0.7 s. The sender's bucket alone took 0.10-0.29 s.
        byte[] data = new byte[4 << 20];
        new Random(11).nextBytes(data);
        LinkTransfer.Result result = LinkTransfer.run(new Contender.RawContender(), LinkInput.of(data),
                1_000_000_000L, List.of(new LinkTransfer.RateStep(0.25, 4_000_000)));

        assertThat(result.verified()).isTrue();
        assertThat(result.wireBytes()).isEqualTo(data.length);
        assertThat(result.seconds()).isGreaterThanOrEqualTo(0.7);
    }
}
