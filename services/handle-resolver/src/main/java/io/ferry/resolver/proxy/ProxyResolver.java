package io.ferry.resolver.proxy;

import io.ferry.resolver.cache.ResolutionCache;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.RedirectTarget;
import io.ferry.resolver.model.ValueRules;
import io.ferry.resolver.repository.HandleStore;
import io.ferry.resolver.resolution.ProxyDecisions;
import io.ferry.resolver.resolution.ProxyDecisions.Decision;
import io.ferry.resolver.resolution.ProxyDecisions.Kind;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The proxy's decision for a handle, as the Handle.net/DOI proxy makes it: gone (410) for a tombstone, 301 to the
 * target of an HS_ALIAS, 302 to a location chosen from 10320/loc (by locatt, then weight) or else to the first URL
 * value (with urlappend added), or the values themselves when asked not to redirect. Only permitted targets
 * ({@link RedirectTarget}: http, https, ftp with a host) are redirected to, and urlappend never changes the host.
 */
@ApplicationScoped
public class ProxyResolver {

    final HandleStore store;

    final ResolutionCache cache;

    @Inject
    public ProxyResolver(HandleStore store, ResolutionCache cache) {
        this.store = store;
        this.cache = cache;
    }

    @WithSpan
    public Uni<Decision> decide(String handle, boolean noRedirect, String urlAppend, String locatt) {
        HandleName name = HandleName.parse(handle);
        if (name == null) {
            throw HandleException.invalidHandle(handle);
        }
        ProxyDecisions.checkAppend(urlAppend);
        // The proxy is anonymous: it sees the public values only (the cache's view).
        return cache.find(handle).flatMap(found -> {
            if (found.isEmpty()) {
                return store.prefixHomed(store.pool(), name.prefix()).map(homed ->
                        new Decision(homed ? Kind.NOT_FOUND : Kind.NOT_RESPONSIBLE, handle, null, List.of(), 60, null));
            }
            HandleStore.Stored h = found.get();
            long ttl = ValueRules.minTtlSeconds(h.values(), OffsetDateTime.now(ZoneOffset.UTC));
            if (h.tombstonedAt() != null) {
                return Uni.createFrom().item(new Decision(Kind.GONE, h.handle(), null, h.values(), ttl, h.tombstoneReason()));
            }
            if (noRedirect) {
                return Uni.createFrom().item(new Decision(Kind.VALUES, h.handle(), null, h.values(), ttl, null));
            }
            return Uni.createFrom().item(ProxyDecisions.choose(h, urlAppend, locatt, ttl));
        });
    }
}
