package io.ferry.pglisten;

import io.ferry.dev.FreePort;
import io.ferry.dev.PostgresServer;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.mutiny.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PgChannelListenerTest {

    private static final String CHANNEL = "ferry_test_channel";

    @TempDir
    Path data;

    private PostgresServer postgres;
    private Vertx vertx;
    private PgChannelListener listener;
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final AtomicInteger subscribed = new AtomicInteger();
    private final AtomicInteger lost = new AtomicInteger();

    @BeforeEach
    void startPostgres() throws Exception {
        postgres = PostgresServer.embedded(data.resolve("pg"), FreePort.find(), false);
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stopAll() throws Exception {
        if (listener != null) {
            listener.close();
        }
        vertx.closeAndAwait();
        postgres.close();
    }

    private PgConnectOptions database() {
        return new PgConnectOptions().setHost(postgres.host()).setPort(postgres.port()).setDatabase("postgres")
                .setUser(postgres.user()).setPassword(postgres.password());
    }

    private void listen() {
        listener = new PgChannelListener(vertx, database(), CHANNEL, heard::add)
                .onSubscribed(subscribed::incrementAndGet)
                .onConnectionLost(lost::incrementAndGet);
        listener.start();
    }

    private void notify(String payload) throws Exception {
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.user(), postgres.password());
             PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            s.setString(1, CHANNEL);
            s.setString(2, payload);
            s.execute();
        }
    }

    @Test
    void hearsTheChannelAndSubscribesAgainAfterTheDatabaseRestarts() throws Exception {
        listen();
        await().atMost(Duration.ofSeconds(10)).until(() -> subscribed.get() == 1);
        notify("first");
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.equals(List.of("first")));
        assertEquals(0, lost.get());

        postgres.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> lost.get() == 1);
        postgres.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> subscribed.get() == 2);
        assertEquals(1, lost.get(), "one loss reported once, however many reconnects failed");
        notify("second");
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.equals(List.of("first", "second")));
    }

    @Test
    void waitsForADatabaseThatComesUpLater() throws Exception {
        postgres.stop();
        listen();
        Thread.sleep(1500);
        assertEquals(0, subscribed.get());
        postgres.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> subscribed.get() == 1);
        notify("late");
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.equals(List.of("late")));
        assertEquals(0, lost.get(), "a first connection that failed is no lost connection");
    }

    @Test
    void aClosedListenerHearsNothingAndDoesNotReconnect() throws Exception {
        listen();
        await().atMost(Duration.ofSeconds(10)).until(() -> subscribed.get() == 1);
        listener.close();
        Thread.sleep(300);
        notify("after close");
        Thread.sleep(1500);
        assertEquals(List.of(), heard);
        assertEquals(1, subscribed.get());
        assertEquals(0, lost.get());
    }

    @Test
    void readsTheServicesDatabaseKeys() {
        PgConnectOptions o = PgChannelListener.database(new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(
                "ferry.db.host", "db.example", "ferry.db.port", "6543", "ferry.db.name", "ferry_resolver",
                "ferry.db.user", "resolver", "ferry.db.password", "secret"), "test", 100)).build());
        assertEquals(List.of("db.example", 6543, "ferry_resolver", "resolver", "secret"),
                List.of(o.getHost(), o.getPort(), o.getDatabase(), o.getUser(), o.getPassword()));
    }
}
