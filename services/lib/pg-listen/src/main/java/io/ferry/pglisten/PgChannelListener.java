package io.ferry.pglisten;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.pgclient.PgConnectOptions;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Listens to one PostgreSQL NOTIFY channel from {@link #start()} to {@link #close()}. The database may come up after
 * the service: the first connection is retried (1 s, backing off to 10 s) until it succeeds. A lost connection is
 * retried every second for as long as it takes; announcements made meanwhile are missed, so a listener that keeps
 * state from them says so in {@link #onConnectionLost} and starts afresh in {@link #onSubscribed}.
 */
public final class PgChannelListener {

    private static final Logger LOG = Logger.getLogger(PgChannelListener.class);
    static final Duration RECONNECT_EVERY = Duration.ofSeconds(1);
    static final Duration FIRST_CONNECT_FROM = Duration.ofSeconds(1);
    static final Duration FIRST_CONNECT_UP_TO = Duration.ofSeconds(10);

    private final Vertx vertx;
    private final PgConnectOptions database;
    private final String channel;
    private final Consumer<String> handler;
    private Runnable subscribed = () -> { };
    private Runnable connectionLost = () -> { };
    private PgSubscriber subscriber;
    private Cancellable connecting;
    private volatile boolean closed;

    /** {@code handler} receives each payload of {@code channel}, on a Vert.x event loop: it must not block. */
    public PgChannelListener(Vertx vertx, PgConnectOptions database, String channel, Consumer<String> handler) {
        this.vertx = vertx;
        this.database = database;
        this.channel = channel;
        this.handler = handler;
    }

    /** The service's database from the {@code ferry.db.host}, {@code .port}, {@code .name}, {@code .user}, {@code .password} keys. */
    public static PgConnectOptions database(Config config) {
        return new PgConnectOptions()
                .setHost(config.getValue("ferry.db.host", String.class))
                .setPort(config.getValue("ferry.db.port", Integer.class))
                .setDatabase(config.getValue("ferry.db.name", String.class))
                .setUser(config.getValue("ferry.db.user", String.class))
                .setPassword(config.getValue("ferry.db.password", String.class));
    }

    /** Runs on every subscription, the first and each one after a lost connection. */
    public PgChannelListener onSubscribed(Runnable callback) {
        this.subscribed = callback;
        return this;
    }

    /** Runs once each time the connection is lost (not on {@link #close()}): from then on announcements may be missed. */
    public PgChannelListener onConnectionLost(Runnable callback) {
        this.connectionLost = callback;
        return this;
    }

    public synchronized void start() {
        if (subscriber != null || closed) {
            return;
        }
        subscriber = PgSubscriber.subscriber(vertx, database);
        // The policy is asked with 0 when the connection has just been lost, then 1, 2, … while reconnecting fails.
        subscriber.reconnectPolicy(retries -> {
            if (retries == 0) {
                connectionLost.run();
            }
            return RECONNECT_EVERY.toMillis();
        });
        subscriber.channel(channel).subscribeHandler(subscribed).handler(handler);
        PgSubscriber s = subscriber;
        connecting = Uni.createFrom().deferred(() -> closed ? Uni.createFrom().failure(new IllegalStateException("closed")) : s.connect())
                // A failed connect leaves the subscriber neither connected nor closed, and connect() on such a
                // subscriber does nothing at all: close it, so that the next attempt really connects.
                .onFailure().call(e -> {
                    LOG.debugf("channel %s not connected yet: %s", channel, e.toString());
                    return s.close();
                })
                .onFailure(e -> !closed).retry().withBackOff(FIRST_CONNECT_FROM, FIRST_CONNECT_UP_TO).indefinitely()
                .subscribe().with(v -> LOG.debugf("listening on channel %s", channel), e -> {
                    if (!closed) {
                        LOG.warnf("channel %s: %s", channel, e.toString());
                    }
                });
    }

    /** Stops listening; a closed listener does not reconnect. */
    public synchronized void close() {
        closed = true;
        if (connecting != null) {
            connecting.cancel();
            connecting = null;
        }
        if (subscriber != null) {
            subscriber.close().subscribe().with(v -> { }, e -> { });
            subscriber = null;
        }
    }
}
