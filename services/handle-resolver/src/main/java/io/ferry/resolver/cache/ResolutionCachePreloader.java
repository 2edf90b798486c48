package io.ferry.resolver.cache;

import io.ferry.resolver.config.ResolverConfig;
import io.ferry.resolver.repository.HandleStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fills the {@link ResolutionCache} from the database, a page of handles at a time in handle order, when the cache
 * starts from empty (start, reconnection, bulk change), so that the first request for a handle is already answered
 * from memory. It stops when the cache is full: from then on the cache keeps what is used most. A request while a
 * pass runs starts another pass after it, because the running one may have read what changed.
 */
@ApplicationScoped
public class ResolutionCachePreloader {

    private static final Logger LOG = Logger.getLogger(ResolutionCachePreloader.class);
    static final int PAGE = 2000;

    final HandleStore store;

    final ResolutionCache cache;

    final ResolverConfig config;

    @Inject
    public ResolutionCachePreloader(HandleStore store, ResolutionCache cache, ResolverConfig config) {
        this.store = store;
        this.cache = cache;
        this.config = config;
    }

    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean again;

    /** Starts a pass, or another one after the running pass. */
    public void request() {
        if (!config.cache().preload() || !cache.enabled()) {
            return;
        }
        again = true;
        if (running.compareAndSet(false, true)) {
            again = false;
            long started = System.nanoTime();
            pass("", 0).subscribe().with(n -> finished(n, started), e -> {
                LOG.warnf("preloading the resolution cache stopped: %s", e.toString());
                finished(-1, started);
            });
        }
    }

    private void finished(long loaded, long started) {
        if (loaded >= 0) {
            LOG.infof("resolution cache preloaded: %,d handles in %.1f s", loaded, (System.nanoTime() - started) / 1e9);
        }
        running.set(false);
        if (again) {
            request();
        }
    }

    /** One page, then the next; ends at the last handle, on a new request (another pass follows) or when the cache is full. */
    private Uni<Long> pass(String after, long loaded) {
        long mark = cache.mark();
        return store.page(after, PAGE).emitOn(Infrastructure.getDefaultWorkerPool()).flatMap(page -> {
            long stored = 0;
            for (HandleStore.Stored s : page) {
                if (cache.remember(s, mark)) {
                    stored++;
                }
            }
            if (page.size() < PAGE || again || !cache.acceptsMore()) {
                return Uni.createFrom().item(loaded + stored);
            }
            return pass(page.get(page.size() - 1).handle(), loaded + stored);
        });
    }
}
