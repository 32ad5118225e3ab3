package org.adaptivecompress.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.adaptivecompress.engine.AdaptiveCompressionOptions;
import org.adaptivecompress.engine.CompressionStatistics;
import org.adaptivecompress.kafka.AdaptiveSerializer;
import org.adaptivecompress.kafka.SerializerMetrics;
import org.adaptivecompress.kafka.SerializerStatistics;
import org.adaptivecompress.metrics.CompressionMetrics;
import org.adaptivecompress.metrics.StatisticsGroup;
import org.adaptivecompress.netty.AdaptiveCompressionDecoder;
import org.adaptivecompress.netty.AdaptiveCompressionEncoder;
import org.adaptivecompress.stream.AdaptiveOutputStream;
import org.adaptivecompress.testing.DataKind;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Every binder read back through a registry, after real traffic. */
class AdaptiveCompressionMetricsTest {

    private static double total(SimpleMeterRegistry registry, String name) {
        double sum = 0;
        for (Meter m : registry.find(name).meters()) {
            sum += m instanceof FunctionCounter ? ((FunctionCounter) m).count() : ((Gauge) m).value();
        }
        return sum;
    }

    @Test
    void aStreamsCountersAndGaugesMatchItsStatistics() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdaptiveOutputStream out = AdaptiveOutputStream.builder().controller("fixed:3").build(new ByteArrayOutputStream());
        AdaptiveCompressionMetrics.of(out, AdaptiveOutputStream::statistics, Tags.of("integration", "stream"))
                .bindTo(registry);
        byte[] data = DataKind.MIXED.generate(2 << 20);
        out.write(data);
        out.close();
        CompressionStatistics s = out.statistics();

        assertThat(total(registry, "adaptive.compress.input")).isEqualTo(data.length);
        assertThat(total(registry, "adaptive.compress.output")).isEqualTo(s.totalBytesOut());
        assertThat(registry.get("adaptive.compress.blocks").tags("rung", "zstd:3", "integration", "stream")
                .functionCounter().count()).isEqualTo(s.blocks(3)).isPositive();
        assertThat(registry.get("adaptive.compress.input").functionCounter().getId().getBaseUnit()).isEqualTo("bytes");
        assertThat(registry.get("adaptive.compress.decisions").tags("reason", "fixed").functionCounter().count())
                .isEqualTo(s.totalBlocks());
        assertThat(registry.get("adaptive.compress.rung").gauge().value()).isEqualTo(3);
        assertThat(total(registry, "adaptive.compress.blocks.incompressible")).isEqualTo(s.incompressibleBlocks())
                .isPositive();
        assertThat(registry.find("adaptive.compress.input").meters()).hasSize(s.ladder().size());
        assertThat(registry.find("adaptive.compress.decisions").meters())
                .hasSize(org.adaptivecompress.control.Reason.values().length);
        assertThat(registry.getMeters().stream().map(m -> m.getId().getName()).distinct())
                .hasSize(CompressionMetrics.ALL.size());
    }

    @Test
    void aNettyChannelGroupCountsEveryChannelOverRealTcp() throws Exception {
        int channels = 3;
        int perChannel = 1 << 20;
        StatisticsGroup group = new StatisticsGroup();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdaptiveCompressionMetrics.of(group, Tags.of("integration", "netty")).bindTo(registry);
        AdaptiveCompressionOptions options = AdaptiveCompressionOptions.builder().statisticsGroup(group).build();
        AtomicLong received = new AtomicLong();
        CountDownLatch allReceived = new CountDownLatch(1);
        EventLoopGroup loops = new NioEventLoopGroup(2);
        try {
            Channel server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new AdaptiveCompressionDecoder(), new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ByteBuf b = (ByteBuf) msg;
                                    if (received.addAndGet(b.readableBytes()) == (long) channels * perChannel) {
                                        allReceived.countDown();
                                    }
                                    b.release();
                                }
                            });
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            Bootstrap client = new Bootstrap().group(loops).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new AdaptiveCompressionEncoder(options));
                        }
                    });
            byte[] data = DataKind.JSON_EVENTS.generate(perChannel);
            List<Channel> clients = new ArrayList<>();
            for (int i = 0; i < channels; i++) {
                Channel c = client.connect(server.localAddress()).sync().channel();
                c.writeAndFlush(Unpooled.wrappedBuffer(data)).sync();
                clients.add(c);
            }
            assertThat(allReceived.await(60, TimeUnit.SECONDS)).as("all bytes decoded by the server").isTrue();
            assertThat(total(registry, "adaptive.compress.streams")).as("open channels").isEqualTo(channels);

            for (Channel c : clients) {
                c.close().sync();
            }
            server.close().sync();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }

        assertThat(group.openStreams()).isZero();
        assertThat(total(registry, "adaptive.compress.streams")).isZero();
        assertThat(total(registry, "adaptive.compress.input") - total(registry, "adaptive.compress.input.replaced"))
                .isEqualTo((double) channels * perChannel);
        assertThat(total(registry, "adaptive.compress.output") - total(registry, "adaptive.compress.output.replaced"))
                .isEqualTo(group.statistics().totalBytesOut()).isLessThan(channels * perChannel / 2.0);
        assertThat(registry.get("adaptive.compress.input").tags("integration", "netty").meters()).isNotEmpty();
    }

    @Test
    void aKafkaSerializerInstanceBindsWithItsOwnDefinitions() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdaptiveSerializer<String> serializer = new AdaptiveSerializer<>(new StringSerializer());
        AdaptiveCompressionMetrics.of(serializer, AdaptiveSerializer::statistics, SerializerMetrics.ALL,
                Tags.of("integration", "kafka")).bindTo(registry);
        String value = new String(DataKind.JSON_EVENTS.generate(4096), java.nio.charset.StandardCharsets.ISO_8859_1);
        long bytesIn = 0;
        for (int i = 0; i < 100; i++) {
            bytesIn += serializer.serialize("events", value).length == 0 ? 0 : value.length();
        }
        SerializerStatistics s = serializer.statistics();

        assertThat(total(registry, "adaptive.serializer.records")).isEqualTo(100);
        assertThat(total(registry, "adaptive.serializer.input")).isEqualTo(bytesIn);
        assertThat(total(registry, "adaptive.serializer.output")).isEqualTo(s.totalBytesOut()).isLessThan(bytesIn);
        assertThat(registry.get("adaptive.serializer.adaptive").gauge().value()).as("no producer: the fallback rung")
                .isZero();
        serializer.close();
    }

    @Test
    void micrometersKafkaClientMetricsShowTheSerializersFiguresFromTheProducer() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Map<String, Object> config = Map.of("bootstrap.servers", "127.0.0.1:9", "client.id", "metrics-test",
                "key.serializer", StringSerializer.class.getName(),
                "value.serializer", AdaptiveSerializer.class.getName(),
                "adaptive.delegate.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config);
                KafkaClientMetrics binder = new KafkaClientMetrics(producer)) {
            binder.bindTo(registry);

            assertThat(registry.find("kafka.plugins.adaptive.serializer.records.total").tag("rung", "zstd:3")
                    .meters()).as(registry.getMetersAsString()).isNotEmpty();
        }
    }
}
