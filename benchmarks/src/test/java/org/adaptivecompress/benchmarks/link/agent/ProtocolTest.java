package org.adaptivecompress.benchmarks.link.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.adaptivecompress.benchmarks.scenario.Family;
import org.adaptivecompress.benchmarks.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** The agents' line protocol: every message parses back to itself; bad lines are refused by name. */
class ProtocolTest {

    @Test
    void requestsParseBack() {
        List<Request> requests = List.of(new Request.Prepare(new Scenario(Family.MIXED, 7001), 8 << 20, 1 << 20),
                new Request.Receive("fixed:3", 60_000, new long[] {100, 200}, 131072),
                new Request.Receive("plain", 1000, new long[0], 0), new Request.Send("zstd-adapt", 40_000, 2500),
                new Request.Quit());

        for (Request r : requests) {
            assertThat(Request.parse(r.line()).line()).isEqualTo(r.line());
        }
        assertThat(Request.parse("prepare mixed:7001 0 10")).isEqualTo(
                new Request.Prepare(new Scenario(Family.MIXED, 7001), 0, 10));
    }

    @Test
    void repliesParseBack() {
        List<Reply> replies = List.of(new Reply.Hello("sender"), new Reply.Ready(12), new Reply.Listening(4242),
                new Reply.Mark(1, 123456789L), new Reply.Received(99, 1 << 20, "ok", new long[] {5, 6}),
                new Reply.Received(99, 10, "mismatch@7", new long[0]),
                new Reply.Sent(42, 1000, new long[] {43}, List.of(new RungTimeline.Point(0, 3),
                        new RungTimeline.Point(0.25, 1)), new long[] {1, 2, 0, 0, 0, 0, 0}, 123456),
                new Reply.Sent(42, 1000, new long[0], List.of(), new long[0], -1), new Reply.Aborted(42, 77),
                new Reply.Failed("sender: java.io.IOException: broken pipe"));

        for (Reply r : replies) {
            assertThat(Reply.parse(r.line()).line()).isEqualTo(r.line());
        }
        assertThat(((Reply.Received) Reply.parse("received 9 10 ok -")).verified()).isTrue();
        assertThat(((Reply.Received) Reply.parse("received 9 10 short -")).verified()).isFalse();
    }

    @Test
    void badLinesAreRefusedNamingTheLine() {
        assertThatThrownBy(() -> Request.parse("dance")).hasMessageContaining("unknown request 'dance'");
        assertThatThrownBy(() -> Request.parse("send plain")).hasMessageContaining("malformed request 'send plain'");
        assertThatThrownBy(() -> Reply.parse("ready soon")).hasMessageContaining("malformed reply 'ready soon'");
    }

    @Test
    void contendersParseByIdInRunOrderAndRefuseUnknownOnes() {
        assertThat(Contender.defaults()).extracting(Contender::id).startsWith("plain", "default", "history", "fixed:0", "fixed:1")
                .endsWith("fixed:6").contains("adoc", "parallel", "zstd-3", "zstd-9", "zstd-adapt", "lz4");
        assertThat(Contender.parse("fixed:3")).isEqualTo(new Contender("fixed:3", "fixed:3 zstd:3",
                Contender.Kind.FIXED));
        assertThat(Contender.parse("zstd-adapt").label()).isEqualTo("zstd --adapt");
        assertThat(Contender.parse("controller:adoc").kind()).isEqualTo(Contender.Kind.ADAPTIVE);
        assertThat(Contender.parseList("plain,all,controller:adoc")).first().extracting(Contender::id)
                .isEqualTo("plain");
        assertThat(Contender.parseList("all,controller:adoc")).hasSize(Contender.defaults().size() + 1);
        assertThatThrownBy(() -> Contender.parse("fixed:7")).hasMessageContaining("fixed:0 to fixed:6");
        assertThatThrownBy(() -> Contender.parse("controller:nope")).hasMessageContaining("unknown controller");
        assertThatThrownBy(() -> Contender.parse("gzip")).hasMessageContaining("unknown contender 'gzip'");
        assertThat(Contender.parse("blocks:128k").maxBlockSize()).isEqualTo(128 << 10);
        assertThat(Contender.parse("blocks:2m").maxBlockSize()).isEqualTo(2 << 20);
        assertThat(Contender.parse("default").maxBlockSize()).isEqualTo(-1);
        assertThatThrownBy(() -> Contender.parse("blocks:12x")).hasMessageContaining("blocks:SIZE");
        assertThatThrownBy(() -> Contender.parse("blocks:100")).hasMessageContaining("blocks:SIZE");
    }
}
