package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.testing.DataKind;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class DecisionListenerKeyTest {

    /** Records every decision told to it, in this JVM. */
    public static final class Recording implements DecisionListener {
        static final List<Decision> DECISIONS = new ArrayList<>();

        @Override
        public void decided(Observation o, Decision d) {
            synchronized (DECISIONS) {
                DECISIONS.add(d);
            }
        }
    }

    @Test
    void theConfiguredListenerIsToldTheDecisionsOfTheCodecsStreams() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(AdaptiveCodecSettings.DECISION_LISTENER_KEY, Recording.class.getName());
        conf.set(AdaptiveCodecSettings.CONTROLLER_KEY, "fixed:2");
        conf.setInt(AdaptiveCodecSettings.BLOCK_SIZE_KEY, 64 * 1024);
        synchronized (Recording.DECISIONS) {
            Recording.DECISIONS.clear();
        }
        byte[] data = DataKind.JSON_EVENTS.generate(1 << 20);

        byte[] compressed = TestFiles.compress(TestFiles.codec(conf), data);

        assertThat(compressed.length).isLessThan(data.length / 2);
        synchronized (Recording.DECISIONS) {
            assertThat(Recording.DECISIONS).as("one decision per 64 KiB block").hasSize(16)
                    .allMatch(d -> d.rung() == 2);
        }
    }

    @Test
    void aClassThatIsNotAListenerIsRefusedWithTheKeyNamed() {
        Configuration conf = new Configuration(false);
        conf.set(AdaptiveCodecSettings.DECISION_LISTENER_KEY, String.class.getName());
        assertThatThrownBy(() -> AdaptiveCodecSettings.from(conf)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(AdaptiveCodecSettings.DECISION_LISTENER_KEY);
    }
}
