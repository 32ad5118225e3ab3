package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.adaptivecompress.control.Decision;
import org.adaptivecompress.control.DecisionListener;
import org.adaptivecompress.control.Observation;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class DecisionListenerConfigTest {

    /** Records every decision of every serializer configured with it, in this JVM. */
    public static final class Recording implements DecisionListener {
        static final List<String> DECISIONS = new ArrayList<>();

        @Override
        public void decided(Observation o, Decision d) {
            synchronized (DECISIONS) {
                DECISIONS.add(o.blockNumber() + ":" + o.rung() + "->" + d.rung() + " " + d.reason());
            }
        }
    }

    @Test
    void theConfiguredListenerIsToldEveryDecisionOfTheSerializer() {
        // Linked to the producer's interceptor: without it the serializer holds the fallback rung, deciding nothing.
        Map<String, Object> cfg = SerdeConfigs.with(AdaptiveSerdeConfig.DECISION_LISTENER, Recording.class.getName(),
                AdaptiveSerdeConfig.CONTROLLER, "fixed:2", "client.id", "listener-config",
                "interceptor.classes", AdaptiveProducerInterceptor.class.getName());
        AdaptiveProducerInterceptor interceptor = new AdaptiveProducerInterceptor();
        interceptor.configure(cfg);
        byte[] data = DataKind.JSON_EVENTS.generate(320 * 1024);
        synchronized (Recording.DECISIONS) {
            Recording.DECISIONS.clear();
        }
        try (AdaptiveSerializer<byte[]> ser = SerdeConfigs.serializer(cfg)) {
            for (int i = 0; i < 320; i++) {
                ser.serialize("t", Arrays.copyOfRange(data, i * 1024, (i + 1) * 1024));
            }
            assertThat(ser.statistics().decisions()).isEqualTo(10);
        } finally {
            interceptor.close();
        }
        // One decision per 32 records (adaptive.observation.records), numbered from 0.
        synchronized (Recording.DECISIONS) {
            assertThat(Recording.DECISIONS).hasSize(10).first().isEqualTo("0:2->2 FIXED");
            assertThat(Recording.DECISIONS).last().isEqualTo("9:2->2 FIXED");
        }
    }

    @Test
    void aClassThatIsNotAListenerIsRefusedWithTheKeyNamed() {
        Map<String, Object> cfg = SerdeConfigs.with(AdaptiveSerdeConfig.DECISION_LISTENER, String.class.getName());
        assertThatThrownBy(() -> SerdeConfigs.serializer(cfg)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(AdaptiveSerdeConfig.DECISION_LISTENER);
    }
}
