package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LinkConfigTest {

    @Test
    void repeatsDefaultToFiveOrOneWhenQuickAndCanBeSet() {
        assertThat(LinkConfig.parse().repeats()).isEqualTo(5);
        assertThat(LinkConfig.parse("--quick").repeats()).isEqualTo(1);
        assertThat(LinkConfig.parse("--repeats", "9").repeats()).isEqualTo(9);
    }

    @Test
    void repeatsMustBeAPositiveWholeNumber() {
        for (String bad : new String[] {"0", "-2", "many"}) {
            assertThatThrownBy(() -> LinkConfig.parse("--repeats", bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--repeats needs a positive whole number");
        }
        assertThatThrownBy(() -> LinkConfig.parse("--repeats")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--repeats needs a value");
    }
}
