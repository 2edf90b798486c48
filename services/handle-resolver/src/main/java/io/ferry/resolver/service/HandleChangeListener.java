package io.ferry.resolver.service;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * Listens for the database's announcements of changed handles (channel {@value #CHANNEL}, migration V3) and drops
 * them from this replica's {@link ResolutionCache}; {@code *} (a bulk change) drops everything and refills the cache.
 * While the connection is down the cache is bypassed, and once it is back the cache starts again from empty.
 */
@ApplicationScoped
public class HandleChangeListener {

    private static final Logger LOG = Logger.getLogger(HandleChangeListener.class);
    static final String CHANNEL = "ferry_handle_changes";
    static final String EVERYTHING = "*";

    @Inject
    ResolutionCache cache;

    @Inject
    ResolutionCachePreloader preloader;

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "ferry.db.host")
    String host;

    @ConfigProperty(name = "ferry.db.port")
    int port;

    @ConfigProperty(name = "ferry.db.name")
    String database;

    @ConfigProperty(name = "ferry.db.user")
    String user;

    @ConfigProperty(name = "ferry.db.password")
    String password;

    private PgSubscriber subscriber;

    void listen(@Observes StartupEvent start) {
        if (!cache.enabled()) {
            return;
        }
        subscriber = PgSubscriber.subscriber(vertx, new PgConnectOptions().setHost(host).setPort(port).setDatabase(database)
                .setUser(user).setPassword(password));
        // The policy runs each time the connection is lost: from then on announcements may be missed.
        subscriber.reconnectPolicy(retries -> {
            if (retries == 0) {
                LOG.warn("lost the database's change announcements: resolving from the database until they are back");
            }
            cache.live(false);
            return 1000L;
        });
        // Runs on every (re)subscription: the cache starts from empty, because changes may have been missed.
        subscriber.channel(CHANNEL).subscribeHandler(() -> {
            cache.live(true);
            preloader.request();
        }).handler(this::changed);
        subscriber.connect()
                .onFailure().invoke(e -> LOG.debugf("change announcements not connected yet: %s", e.toString()))
                .onFailure().retry().withBackOff(Duration.ofSeconds(1), Duration.ofSeconds(10)).indefinitely()
                .subscribe().with(v -> LOG.debug("listening for changed handles"), e -> LOG.warnf("change announcements: %s", e.toString()));
    }

    void stop(@Observes ShutdownEvent stop) {
        cache.live(false);
        if (subscriber != null) {
            subscriber.close().subscribe().with(v -> { }, e -> { });
        }
    }

    void changed(String payload) {
        if (EVERYTHING.equals(payload)) {
            cache.invalidateAll();
            preloader.request();
        } else {
            cache.invalidate(payload);
        }
    }
}
