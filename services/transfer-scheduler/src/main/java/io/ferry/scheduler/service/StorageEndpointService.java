package io.ferry.scheduler.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.repository.StorageEndpoint;
import io.ferry.scheduler.rest.StorageEndpointInput;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The SE catalogue: registration and removal of the storage endpoints transfers may touch. */
@ApplicationScoped
public class StorageEndpointService {

    @Inject
    Caller caller;

    @WithSession
    public Uni<List<StorageEndpoint>> list() {
        return StorageEndpoint.listAll(io.quarkus.panache.common.Sort.by("name"));
    }

    @WithSession
    public Uni<StorageEndpoint> get(String name) {
        return StorageEndpoint.<StorageEndpoint>findById(name)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("storage endpoint '" + name + "'"));
    }

    /** Creates or replaces the SE {@code name}; answers whether it was created. */
    @WithSpan
    @WithTransaction
    public Uni<Created> put(String name, StorageEndpointInput in) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
            throw ProblemException.badRequest("name", "must be an SE name such as RAL-ECHO");
        }
        Map<String, String> urls = validatedBaseUrls(in.baseUrls());
        return StorageEndpoint.<StorageEndpoint>findById(name).flatMap(existing -> {
            StorageEndpoint se = existing == null ? new StorageEndpoint() : existing;
            se.name = name;
            se.site = in.site();
            se.baseUrls = urls;
            se.needsPrepare = Boolean.TRUE.equals(in.needsPrepare());
            se.thirdPartyCopy = Boolean.TRUE.equals(in.thirdPartyCopy());
            se.inboundMaxActive = in.inboundMaxActive() == null ? 50 : in.inboundMaxActive();
            se.outboundMaxActive = in.outboundMaxActive() == null ? 50 : in.outboundMaxActive();
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

    /** Base URLs must be absolute, of the protocol they are filed under, and carry no query or fragment. */
    static Map<String, String> validatedBaseUrls(Map<String, String> baseUrls) {
        List<Problem.FieldError> errors = new ArrayList<>();
        Map<String, String> out = new TreeMap<>();
        baseUrls.forEach((protocol, url) -> {
            String field = "baseUrls." + protocol;
            try {
                URI uri = new URI(url.trim());
                // "tape" is the SE's WLCG Tape REST API endpoint (stage requests), reached over http(s)
                boolean tape = protocol.equals("tape");
                if (tape ? !"https".equalsIgnoreCase(uri.getScheme()) && !"http".equalsIgnoreCase(uri.getScheme())
                        : !protocol.equalsIgnoreCase(uri.getScheme())) {
                    errors.add(new Problem.FieldError(field, tape ? "the tape endpoint is an http(s) URL" : "URL scheme must be '" + protocol + "'"));
                } else if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                    errors.add(new Problem.FieldError(field, "a base URL takes no query or fragment"));
                } else if (protocol.equals("file") ? uri.getPath() == null || !uri.getPath().startsWith("/")
                        : uri.getHost() == null) {
                    errors.add(new Problem.FieldError(field, protocol.equals("file")
                            ? "must name an absolute directory (file:///data/se1)" : "must name a host"));
                } else if (uri.normalize().getPath() != null && uri.normalize().getPath().contains("..")) {
                    errors.add(new Problem.FieldError(field, "must not contain '..'"));
                } else {
                    String s = uri.normalize().toString();
                    out.put(protocol, s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
                }
            } catch (URISyntaxException e) {
                errors.add(new Problem.FieldError(field, "not a URL: " + e.getReason()));
            }
        });
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_INPUT", "invalid base URLs", errors);
        }
        return out;
    }
}
