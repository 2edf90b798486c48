package io.ferry.scheduler.storage;

import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.storageurl.InvalidStorageUrl;
import io.ferry.storageurl.StorageUrl;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The SE catalogue: registration and removal of the storage endpoints transfers may touch, and who may use them. */
@ApplicationScoped
public class StorageEndpointService {

    final CurrentCaller caller;

    @Inject
    public StorageEndpointService(CurrentCaller caller) {
        this.caller = caller;
    }

    @WithSession
    public Uni<List<StorageEndpoint>> list() {
        return StorageEndpoint.listAll(Sort.by("name"));
    }

    @WithSession
    public Uni<StorageEndpoint> get(String name) {
        return StorageEndpoint.<StorageEndpoint>findById(name)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("storage endpoint '" + name + "'"));
    }

    /** Creates or replaces the SE {@code name}; answers whether it was created. */
    @WithSpan
    @WithTransaction
    public Uni<Created> put(String name, Registration in) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
            throw ProblemException.badRequest("name", "must be an SE name such as RAL-ECHO");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Map<String, String> urls = validatedBaseUrls(in.baseUrls(), errors);
        StorageAccess access = validatedAccess(in.access(), errors);
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_INPUT", errors.size() + " problem(s) with the storage endpoint; nothing was stored", errors);
        }
        // one catalogue write at a time (across replicas), so two registrations cannot both claim one base URL
        return Panache.getSession().flatMap(s -> s.createNativeQuery("SELECT pg_advisory_xact_lock(:key)").setParameter("key", CATALOGUE_LOCK)
                        .getSingleResult())
                .flatMap(locked -> StorageEndpoint.<StorageEndpoint>listAll())
                .invoke(all -> refuseTakenBaseUrls(name, urls, all))
                .flatMap(all -> StorageEndpoint.<StorageEndpoint>findById(name)).flatMap(existing -> {
            StorageEndpoint se = existing == null ? new StorageEndpoint() : existing;
            se.name = name;
            se.site = in.site();
            se.baseUrls = urls;
            se.access = access;
            se.needsPrepare = Boolean.TRUE.equals(in.needsPrepare());
            se.thirdPartyCopy = Boolean.TRUE.equals(in.thirdPartyCopy());
            se.inboundMaxActive = in.inboundMaxActive() == null ? 50 : in.inboundMaxActive();
            se.outboundMaxActive = in.outboundMaxActive() == null ? 50 : in.outboundMaxActive();
            se.allowServiceIdentity = !Boolean.FALSE.equals(in.allowServiceIdentity());
            se.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
            se.updatedBy = caller.subject();
            return se.<StorageEndpoint>persist().map(saved -> new Created(saved, existing == null));
        });
    }

    @WithSpan
    @WithTransaction
    public Uni<Void> delete(String name) {
        return get(name).flatMap(StorageEndpoint::delete);
    }

    public record Created(StorageEndpoint endpoint, boolean created) {
    }

    /** An SE as an administrator registers it: base URL per protocol, who may read and write, limits (null: defaults). */
    public record Registration(String site, Map<String, String> baseUrls, StorageAccess access, Boolean needsPrepare,
                               Boolean thirdPartyCopy, Integer inboundMaxActive, Integer outboundMaxActive, Boolean allowServiceIdentity) {
    }

    /**
     * A base URL equal (canonically) to another SE's for the same scheme is 409 BASE_URL_TAKEN: with two SEs on one
     * base, which one's rights hold would depend on the order they are read in. Nested bases are fine (the longest
     * wins). The tape endpoint is not matched against jobs' URLs and may be shared.
     */
    static void refuseTakenBaseUrls(String name, Map<String, String> urls, List<StorageEndpoint> all) {
        List<Problem.FieldError> taken = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        urls.forEach((protocol, url) -> {
            if (protocol.equals("tape")) {
                return;
            }
            StorageUrl mine = StorageUrl.parse(url);
            for (StorageEndpoint other : all) {
                String theirs = other.name.equals(name) || other.baseUrls == null ? null : other.baseUrls.get(protocol);
                if (theirs != null && StorageUrl.tryParse(theirs).filter(t -> EndpointMatcher.sameBase(mine, t)).isPresent()) {
                    taken.add(new Problem.FieldError("baseUrls." + protocol, url + " is already the base URL of storage endpoint " + other.name));
                    owners.add(other.name);
                    return;
                }
            }
        });
        if (!taken.isEmpty()) {
            throw new ProblemException(Problem.of(409, "BASE_URL_TAKEN", "storage endpoint " + String.join(", ", owners)
                    + " already has this base URL; base URLs are unique per scheme (nested ones are fine); nothing was stored").withErrors(taken));
        }
    }

    /**
     * Base URLs in their canonical form ({@link StorageUrl}: what jobs' URLs are matched against), of the protocol
     * they are filed under (tape: the SE's WLCG Tape REST endpoint, http(s)); file:// ones name a local directory.
     * Kept without a trailing '/', as they always were.
     */
    static Map<String, String> validatedBaseUrls(Map<String, String> baseUrls, List<Problem.FieldError> errors) {
        Map<String, String> out = new TreeMap<>();
        baseUrls.forEach((protocol, url) -> {
            String field = "baseUrls." + protocol;
            StorageUrl parsed;
            try {
                parsed = StorageUrl.parse(url.trim());
            } catch (InvalidStorageUrl e) {
                errors.add(new Problem.FieldError(field, "not a storage URL (" + e.reason() + "): " + e.getMessage()));
                return;
            }
            // "tape" is the SE's WLCG Tape REST API endpoint (stage requests), reached over http(s)
            boolean tape = protocol.equals("tape");
            if (tape ? !parsed.scheme().equals("https") && !parsed.scheme().equals("http") : !protocol.equals(parsed.scheme())) {
                errors.add(new Problem.FieldError(field, tape ? "the tape endpoint is an http(s) URL" : "URL scheme must be '" + protocol + "'"));
            } else if (protocol.equals("file") && !parsed.host().isEmpty()) {
                errors.add(new Problem.FieldError(field, "must name a local absolute directory (file:///data/se1)"));
            } else {
                String s = parsed.toString();
                out.put(protocol, s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
            }
        });
        return out;
    }

    /** Rights as given, each rule checked; absent rights are closed. */
    static StorageAccess validatedAccess(StorageAccess access, List<Problem.FieldError> errors) {
        if (access == null) {
            return StorageAccess.CLOSED;
        }
        if (access.rules().size() > MAX_RULES) {
            errors.add(new Problem.FieldError("access.rules", "at most " + MAX_RULES + " rules"));
            return access;
        }
        List<StorageAccess.Rule> rules = new ArrayList<>();
        for (int i = 0; i < access.rules().size(); i++) {
            StorageAccess.Rule r = access.rules().get(i);
            String at = "access.rules[" + i + "]";
            if (r == null) {
                errors.add(new Problem.FieldError(at, "a rule is an object {vo, read, write, path}"));
                continue;
            }
            if (r.vo() == null || !r.vo().matches(VO)) {
                errors.add(new Problem.FieldError(at + ".vo", "a VO name such as atlas"));
            }
            String path = r.path();
            if (path != null) {
                try {
                    List<String> segments = StorageUrl.decodedSegments(path);
                    // one spelling per prefix: "/atlas/", whatever was given ("atlas", "//atlas")
                    path = "/" + String.join("/", segments) + (segments.isEmpty() ? "" : "/");
                } catch (InvalidStorageUrl e) {
                    errors.add(new Problem.FieldError(at + ".path", "a decoded path below the SE's base such as /atlas/ ("
                            + e.reason() + "): " + e.getMessage()));
                }
                if (r.path().length() > 1000) {
                    errors.add(new Problem.FieldError(at + ".path", "at most 1000 characters"));
                }
            }
            rules.add(new StorageAccess.Rule(r.vo(), r.read(), r.write(), path));
        }
        return new StorageAccess(access.open(), rules);
    }

    static final int MAX_RULES = 200;
    /** Key of the advisory lock that serialises SE catalogue writes. */
    static final long CATALOGUE_LOCK = 0x5345_4341_5441_4cL;
    static final String VO = "[A-Za-z0-9][A-Za-z0-9_.-]{0,99}";
}
