package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/** What the serializer logs: a warning when it cannot adapt, a debug line per change of rung. */
class SerializerLoggingTest {

    @Test
    void warnsOnceWhenTheInterceptorIsMissing() {
        try (LogCapture log = LogCapture.of(AdaptiveSerializer.class, Level.WARN);
                AdaptiveSerializer<byte[]> s = SerdeConfigs.serializer(
                        SerdeConfigs.with(ProducerConfig.CLIENT_ID_CONFIG, "no-interceptor"))) {
            s.serialize("t", new byte[1000]);
            s.serialize("t", new byte[1000]);
            assertThat(s.statistics().adaptive()).isFalse();
            assertThat(log.lines()).singleElement().asString()
                    .startsWith("WARN AdaptiveSerializer (values) does not adapt")
                    .contains(AdaptiveProducerInterceptor.class.getName() + " is not in interceptor.classes");
        }
    }

    @Test
    void warnsWhenNoClientIdLinksItToTheInterceptor() {
        try (LogCapture log = LogCapture.of(AdaptiveSerializer.class, Level.WARN);
                AdaptiveSerializer<byte[]> s = SerdeConfigs.serializer(SerdeConfigs.with(
                        ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, AdaptiveProducerInterceptor.class.getName()))) {
            assertThat(s.statistics().adaptive()).isFalse();
            assertThat(log.lines()).singleElement().asString().contains("no client.id");
        }
    }

    @Test
    void linkedToItsInterceptorItWarnsOfNothingAndLogsRungChangesAtDebug() {
        Map<String, Object> cfg = SerdeConfigs.with(ProducerConfig.CLIENT_ID_CONFIG, "logging-linked",
                ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, AdaptiveProducerInterceptor.class.getName(),
                AdaptiveSerdeConfig.CONTROLLER, "adoc");
        AdaptiveProducerInterceptor interceptor = new AdaptiveProducerInterceptor();
        interceptor.configure(cfg);
        try (LogCapture warnings = LogCapture.of(AdaptiveSerializer.class, Level.WARN);
                LogCapture decisions = LogCapture.of(RungDecider.class, Level.DEBUG);
                AdaptiveSerializer<byte[]> s = SerdeConfigs.serializer(cfg)) {
            byte[] value = new byte[4096];
            for (int i = 0; i < 2000; i++) { // nothing acknowledged: the backlog grows, the rung climbs
                value[i % value.length] = (byte) i;
                s.serialize("t", value);
                ProducerFeedbackTest.brokerSilentForAnInterval(i);
            }
            assertThat(s.statistics().adaptive()).isTrue();
            assertThat(warnings.lines()).isEmpty();
            assertThat(decisions.lines()).isNotEmpty()
                    .allSatisfy(line -> assertThat(line).matches("DEBUG decision \\d+: \\S+ -> \\S+: rung \\d+ \\(.*"));
        } finally {
            interceptor.close();
        }
    }
}
