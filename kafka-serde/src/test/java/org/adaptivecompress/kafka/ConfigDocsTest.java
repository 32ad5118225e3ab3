package org.adaptivecompress.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigDocsTest {

    private static final Path DOC = Path.of("..", "docs", "kafka.md");

    @Test
    void docsContainTheTableGeneratedFromTheConfigDef() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        assertThat(doc).as("docs/kafka.md must contain AdaptiveSerdeConfig.markdownTable() verbatim; regenerate it")
                .contains(AdaptiveSerdeConfig.markdownTable());
        for (ConfigDef.ConfigKey key : AdaptiveSerdeConfig.configDef().configKeys().values()) {
            assertThat(doc).contains("`" + key.name + "`").contains(key.documentation);
        }
    }

    @Test
    void badValuesAreRefusedWithTheKeyNamed() {
        assertThatThrownBy(() -> new AdaptiveSerdeConfig(Map.of(AdaptiveSerdeConfig.LADDER, "lz4,zstd")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("adaptive.ladder")
                .hasMessageContaining("must start with raw");
        assertThatThrownBy(() -> new AdaptiveSerdeConfig(Map.of(AdaptiveSerdeConfig.CONTROLLER, "smart")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("adaptive.controller");
        assertThatThrownBy(() -> new AdaptiveSerdeConfig(Map.of(AdaptiveSerdeConfig.OBJECTIVE, "cheap")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("adaptive.objective");
        assertThatThrownBy(() -> new AdaptiveSerdeConfig(Map.of(AdaptiveSerdeConfig.OBJECTIVE, "cpu-budget:0.3",
                AdaptiveSerdeConfig.CONTROLLER, "adoc")).controller())
                .isInstanceOf(ConfigException.class).hasMessageContaining("adaptive.objective")
                .hasMessageContaining("needs the model controller");
        assertThatThrownBy(() -> new AdaptiveSerdeConfig(Map.of(AdaptiveSerdeConfig.MIN_COMPRESS_BYTES, "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("adaptive.min.compress.bytes");
        assertThatThrownBy(() -> SerdeConfigs.serializer(SerdeConfigs.with(AdaptiveSerdeConfig.DELEGATE_SERIALIZER, null)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("adaptive.delegate.serializer is required");
    }
}
