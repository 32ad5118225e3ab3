package org.adaptivecompress.kafka;

import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One in-JVM broker per test class, registered with {@code @RegisterExtension} on a static field:
 * started before the class's {@code @BeforeAll} methods and its first test, closed after its last.
 */
final class BrokerExtension implements BeforeAllCallback, AfterAllCallback {

    private final Map<String, String> overrides;
    private EmbeddedKafkaBroker broker;

    BrokerExtension() {
        this(Map.of());
    }

    /** @param overrides broker properties over {@link EmbeddedKafkaBroker}'s defaults */
    BrokerExtension(Map<String, String> overrides) {
        this.overrides = overrides;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        broker = new EmbeddedKafkaBroker(overrides).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        broker.close();
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }
}
