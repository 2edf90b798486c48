package io.ferry.resolver.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.Locations;
import io.ferry.resolver.model.RedirectTarget;
import io.ferry.resolver.model.ValueRules;
import io.ferry.resolver.repository.HandleStore;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The proxy's decision for a handle, as the Handle.net/DOI proxy makes it: gone (410) for a tombstone, 301 to the
 * target of an HS_ALIAS, 302 to a location chosen from 10320/loc (by locatt, then weight) or else to the first URL
 * value (with urlappend added), or the values themselves when asked not to redirect. Only permitted targets
 * ({@link RedirectTarget}: http, https, ftp with a host) are redirected to, and urlappend never changes the host.
 */
@ApplicationScoped
public class ProxyResolver {

    public enum Kind { REDIRECT, ALIAS, VALUES, GONE, NOT_FOUND, NOT_RESPONSIBLE, NO_URL }

    public record Decision(Kind kind, String handle, String location, List<HandleValue> values, long ttlSeconds, String reason) {
    }

    @Inject
    HandleStore store;

    @Inject
    ResolutionCache cache;

    @WithSpan
    public Uni<Decision> decide(String handle, boolean noRedirect, String urlAppend, String locatt) {
        HandleName name = HandleName.parse(handle);
        if (name == null) {
            throw HandleException.invalidHandle(handle);
        }
        checkAppend(urlAppend);
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
            return Uni.createFrom().item(choose(h, urlAppend, locatt, ttl));
        });
    }

    /**
     * The redirect for a handle (its public view): the first HS_ALIAS that names a handle, else a location of the
     * first 10320/loc value with a permitted one, else the first URL value that is a permitted target
     * ({@link RedirectTarget}); values that are not are passed over, never redirected to.
     */
    static Decision choose(HandleStore.Stored h, String urlAppend, String locatt, long ttl) {
        for (HandleValue v : h.values()) {
            if (HandleValue.HS_ALIAS.equals(v.type())) {
                var path = RedirectTarget.aliasPath(v.data().value().asText());
                if (path.isPresent()) {
                    return new Decision(Kind.ALIAS, h.handle(), path.get(), h.values(), ttl, null);
                }
            }
        }
        for (HandleValue v : h.values()) {
            if (HandleValue.LOC.equals(v.type())) {
                List<Locations.Location> permitted = h.locationsOf(v).stream().filter(l -> RedirectTarget.allowed(l.href())).toList();
                Locations.Location l = Locations.choose(permitted, locatt, ThreadLocalRandom.current());
                if (l != null) {
                    return new Decision(Kind.REDIRECT, h.handle(), append(l.href(), urlAppend), h.values(), ttl, null);
                }
            }
        }
        for (HandleValue v : h.values()) {
            if (HandleValue.URL.equals(v.type()) && RedirectTarget.allowed(v.data().value().asText())) {
                return new Decision(Kind.REDIRECT, h.handle(), append(v.data().value().asText(), urlAppend), h.values(), ttl, null);
            }
        }
        return new Decision(Kind.NO_URL, h.handle(), null, h.values(), ttl, null);
    }

    static String append(String url, String urlAppend) {
        try {
            return RedirectTarget.append(url, urlAppend);
        } catch (RedirectTarget.BadAppend e) {
            throw badAppend(e);
        }
    }

    private static void checkAppend(String urlAppend) {
        try {
            RedirectTarget.checkAppend(urlAppend);
        } catch (RedirectTarget.BadAppend e) {
            throw badAppend(e);
        }
    }

    private static ProblemException badAppend(RedirectTarget.BadAppend e) {
        return new ProblemException(Problem.of(400, "INVALID_URLAPPEND", "urlappend: " + e.getMessage())
                .withErrors(List.of(new Problem.FieldError("urlappend", e.getMessage()))));
    }
}
