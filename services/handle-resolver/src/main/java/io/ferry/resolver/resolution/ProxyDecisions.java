package io.ferry.resolver.resolution;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.Locations;
import io.ferry.resolver.model.RedirectTarget;
import io.ferry.resolver.repository.HandleStore;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Where the proxy sends a client for a stored handle: the kinds of answer, and the choice of redirect. */
public final class ProxyDecisions {

    public enum Kind { REDIRECT, ALIAS, VALUES, GONE, NOT_FOUND, NOT_RESPONSIBLE, NO_URL }

    public record Decision(Kind kind, String handle, String location, List<HandleValue> values, long ttlSeconds, String reason) {
    }

    private ProxyDecisions() {
    }

    /**
     * The redirect for a handle (its public view): the first HS_ALIAS that names a handle, else a location of the
     * first 10320/loc value with a permitted one, else the first URL value that is a permitted target
     * ({@link RedirectTarget}); values that are not are passed over, never redirected to.
     */
    public static Decision choose(HandleStore.Stored h, String urlAppend, String locatt, long ttl) {
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

    public static String append(String url, String urlAppend) {
        try {
            return RedirectTarget.append(url, urlAppend);
        } catch (RedirectTarget.BadAppend e) {
            throw badAppend(e);
        }
    }

    public static void checkAppend(String urlAppend) {
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
