package io.ferry.resolver.cache;

import io.ferry.pglisten.PgChannelListener;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

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

    final ResolutionCache cache;

    final ResolutionCachePreloader preloader;

    final Vertx vertx;

    final Config config;

    @Inject
    public HandleChangeListener(ResolutionCache cache, ResolutionCachePreloader preloader, Vertx vertx, Config config) {
        this.cache = cache;
        this.preloader = preloader;
        this.vertx = vertx;
        this.config = config;
    }

    private PgChannelListener announcements;

    void listen(@Observes StartupEvent start) {
        if (!cache.enabled()) {
            return;
        }
        announcements = new PgChannelListener(vertx, PgChannelListener.database(config), CHANNEL, this::changed)
                .onConnectionLost(() -> {
                    LOG.warn("lost the database's change announcements: resolving from the database until they are back");
                    cache.live(false);
                })
                // On every (re)subscription the cache starts from empty, because changes may have been missed.
                .onSubscribed(() -> {
                    cache.live(true);
                    preloader.request();
                });
        announcements.start();
    }

    void stop(@Observes ShutdownEvent stop) {
        cache.live(false);
        if (announcements != null) {
            announcements.close();
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
