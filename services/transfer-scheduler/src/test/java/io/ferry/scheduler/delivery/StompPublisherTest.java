package io.ferry.scheduler.delivery;

import io.ferry.dev.FreePort;
import io.ferry.scheduler.config.MonitoringStompConfig;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The publisher against a real STOMP broker: receipts awaited, an absent broker reported, the connection renewed. */
class StompPublisherTest {

    /** The settings a deployment would give, pointing at 127.0.0.1:port. */
    record Settings(int port, Optional<String> passcode) implements MonitoringStompConfig {
        public boolean enabled() { return true; }
        public String host() { return "127.0.0.1"; }
        public boolean tls() { return false; }
        public Optional<String> login() { return Optional.of("ferry"); }
        public Optional<String> virtualHost() { return Optional.empty(); }
        public String destinationPrefix() { return "/topic/"; }
        public String completeDestination() { return "transfer.fts_monitoring_complete"; }
        public String stateDestination() { return "transfer.fts_monitoring_state"; }
        public String startDestination() { return "transfer.fts_monitoring_start"; }
        public boolean stateMessages() { return true; }
        public boolean eot() { return true; }
        public Optional<String> endpoint() { return Optional.of("https://ferry.test:8446"); }
        public Duration interval() { return Duration.ofMillis(100); }
        public int batch() { return 10; }
        public Duration receiptTimeout() { return Duration.ofSeconds(3); }
        public Duration maxBackoff() { return Duration.ofSeconds(1); }
    }

    static final String TOPIC = "/topic/transfer.fts_monitoring_complete";

    @Test
    void messagesCountAsPublishedOnlyWhenTheBrokerIsThereAndTheyArriveInOrderAfterItComesBack() throws Exception {
        int port = FreePort.find();
        Vertx vertx = Vertx.vertx();
        try (StompPublisher publisher = new StompPublisher(vertx, new Settings(port, Optional.of("s3cret-passcode")))) {
            List<StompPublisher.Message> batch = List.of(message("one"), message("two"), message("three"));
            String away = publisher.publish(batch);
            assertNotNull(away, "no broker: not published");
            assertTrue(away.contains("127.0.0.1:" + port), away);
            assertFalse(away.contains("s3cret"), "the passcode stays out of the reason: " + away);

            try (StompBroker broker = new StompBroker(port, "transfer.fts_monitoring_complete")) {
                assertNull(publisher.publish(batch));
                await().atMost(Duration.ofSeconds(5)).until(() -> broker.bodies.size() == 3);
                assertEquals(List.of("one", "two", "three"), broker.bodies);
                assertEquals(List.of("atlas", "atlas", "atlas"), broker.voHeaders);
            }
            assertNotNull(publisher.publish(List.of(message("four"))), "the broker went away: the connection is noticed gone");
            try (StompBroker broker = new StompBroker(port, "transfer.fts_monitoring_complete")) {
                await().atMost(Duration.ofSeconds(5)).until(() -> publisher.publish(List.of(message("four"))) == null);
                await().atMost(Duration.ofSeconds(5)).until(() -> broker.bodies.contains("four"));
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }

    private static StompPublisher.Message message(String body) {
        return new StompPublisher.Message(TOPIC, Map.of("vo", "atlas"), body.getBytes(StandardCharsets.UTF_8));
    }
}
