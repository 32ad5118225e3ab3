package org.adaptivecompress.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.adaptivecompress.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

class KafkaExampleIT {

    @Test
    void everyRecordSentThroughTheAdaptiveSerdeIsConsumedUnchanged() throws Exception {
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start()) {
            KafkaExample.Result r = KafkaExample.run(broker.bootstrapServers(), "example-it", 5_000);

            assertThat(r.received()).hasSize(5_000).containsExactlyInAnyOrderElementsOf(r.sent());
            assertThat(r.allReceived()).isTrue();
            assertThat(r.statistics().adaptive()).isTrue();
            assertThat(r.statistics().totalRecords()).isEqualTo(5_000);
            assertThat(r.statistics().totalBytesOut()).isLessThan(r.statistics().totalBytesIn());
        }
    }

}
