package io.ferry.scheduler.delivery;

import io.ferry.dev.DirectoryTrees;
import io.vertx.core.Vertx;
import io.vertx.ext.stomp.StompClient;
import io.vertx.ext.stomp.StompClientConnection;
import io.vertx.ext.stomp.StompClientOptions;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real STOMP broker for the tests: ActiveMQ Artemis, embedded, in memory, its STOMP acceptor on 127.0.0.1 (/topic/
 * destinations multicast, /queue/ anycast, as brokers for FTS3 are set up). The topic's subscription queue exists from
 * the broker's start, as a consumer's durable subscription would, so nothing published after the start is missed
 * however late the subscriber (Vert.x's STOMP client, keeping every body it is delivered, as Rucio's receiver) reads.
 */
public final class StompBroker implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final EmbeddedActiveMQ server;
    private final Path data;
    private final StompClient client;
    private final StompClientConnection subscriber;
    /** The bodies the subscriber got on the first topic, as delivered. */
    public final List<String> bodies = new CopyOnWriteArrayList<>();
    /** Their {@code vo} headers, in the same order. */
    public final List<String> voHeaders = new CopyOnWriteArrayList<>();
    /** The bodies of every topic, by topic. */
    public final Map<String, List<String>> byTopic = new ConcurrentHashMap<>();

    /** {@code topic}, {@code more}: addresses without the /topic/ prefix, e.g. transfer.fts_monitoring_complete. */
    public StompBroker(int port, String topic, String... more) throws Exception {
        data = Files.createTempDirectory("ferry-artemis");
        ConfigurationImpl configuration = new ConfigurationImpl();
        configuration.setPersistenceEnabled(false).setSecurityEnabled(false).setJMXManagementEnabled(false)
                .addAcceptorConfiguration("stomp", "tcp://127.0.0.1:" + port + "?protocols=STOMP;anycastPrefix=/queue/;multicastPrefix=/topic/");
        configuration.setBrokerInstance(data.toFile());
        List<String> topics = new ArrayList<>(List.of(topic));
        topics.addAll(List.of(more));
        for (String t : topics) {
            configuration.addQueueConfiguration(QueueConfiguration.of("subscriber-" + t).setAddress(t)
                    .setRoutingType(RoutingType.MULTICAST).setDurable(false));
            byTopic.put(t, new CopyOnWriteArrayList<>());
        }
        server = new EmbeddedActiveMQ().setConfiguration(configuration);
        server.start();
        client = StompClient.create(vertx, new StompClientOptions().setHost("127.0.0.1").setPort(port));
        subscriber = client.connect().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        for (String t : topics) {
            subscriber.subscribe(t + "::subscriber-" + t, frame -> {
                String body = frame.getBodyAsString(StandardCharsets.UTF_8.name());
                byTopic.get(t).add(body);
                if (t.equals(topic)) {
                    bodies.add(body);
                    voHeaders.add(frame.getHeader("vo"));
                }
            }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws Exception {
        subscriber.close();
        client.close();
        server.stop();
        DirectoryTrees.delete(data);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

}
