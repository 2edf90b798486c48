package io.ferry.scheduler.credentials.delegation;

import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.identity.security.GridVerifiers;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.config.DelegationConfig;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * FTS3's proxy delegation. A delegation id belongs to the DN and FQANs it is computed from: only that caller may read,
 * request, put or delete it (403 otherwise). The key pair of a request is made here and never leaves; the signed proxy
 * must be for it, be issued by the caller's own credential (its whole chain verified as a client chain is, and naming
 * the same DN and FQANs), and not be expired. Keys and proxies are stored sealed ({@link DelegationCipher}).
 */
@ApplicationScoped
public class DelegationService {

    /** A delegation as {@code GET /delegation/{id}} reports it. */
    public record Info(OffsetDateTime terminationTime, List<String> vomsAttrs) {
    }

    private final CurrentCaller current;
    private final DelegatedCredentials store;
    private final DelegationCipher cipher;
    private final GridVerifiers verifiers;
    private final DelegationConfig config;

    @Inject
    DelegationService(CurrentCaller current, DelegatedCredentials store, DelegationCipher cipher, GridVerifiers verifiers,
                      DelegationConfig config) {
        this.current = current;
        this.store = store;
        this.cipher = cipher;
        this.verifiers = verifiers;
        this.config = config;
    }

    /** The caller's delegation under {@code id}, empty when there is none or it expired. */
    public Uni<Optional<Info>> info(String id) {
        GridCaller caller = owner(id, false);
        return store.proxy(id, caller.dn(), now()).map(found -> found.map(d -> new Info(d.terminationTime(),
                d.vomsAttrs() == null || d.vomsAttrs().isEmpty() ? List.of() : List.of(d.vomsAttrs().split("\n")))));
    }

    /** The PEM certificate request for {@code id}: the pending one while it is young, else a new key pair's. */
    public Uni<String> request(String id) {
        GridCaller caller = owner(id, true);
        OffsetDateTime now = now();
        return cleanUp(now).flatMap(x -> store.pending(id, caller.dn())).flatMap(pending -> {
            if (pending.isPresent() && pending.get().requestedAt().isAfter(now.minus(config.requestLifetime()))) {
                return Uni.createFrom().item(pending.get().csrPem());
            }
            return onWorker(ProxyDelegation::newRequest).flatMap(r -> store.savePending(id, caller.dn(), r.csrPem(),
                    cipher.encrypt(r.keyPem().getBytes(StandardCharsets.US_ASCII), DelegationCipher.row(id, caller.dn()), DelegationCipher.KEY_COLUMN), now).replaceWith(r.csrPem()));
        });
    }

    /** Checks and stores the signed proxy ({@code pem}: proxy first, then its chain) answering the pending request. */
    public Uni<OffsetDateTime> store(String id, String pem) {
        GridCaller caller = owner(id, true);
        OffsetDateTime now = now();
        return store.pending(id, caller.dn()).flatMap(pending -> {
            if (pending.isEmpty()) {
                throw ProblemException.badRequest("DELEGATION_NO_REQUEST",
                        "no pending certificate request for delegation id " + id + ": GET /delegation/" + id + "/request first", List.of());
            }
            return onWorker(() -> checked(caller, id, pem, pending.get(), now));
        }).flatMap(proxy -> store.saveProxy(id, caller.dn(), cipher.encrypt(proxy.fullPem().getBytes(StandardCharsets.US_ASCII),
                DelegationCipher.row(id, caller.dn()), DelegationCipher.PROXY_COLUMN), String.join("\n", caller.fqans()), proxy.terminationTime(), now)
                .replaceWith(proxy.terminationTime()));
    }

    /** Deletes the caller's delegation; 404 when there is none. */
    public Uni<Void> delete(String id) {
        GridCaller caller = owner(id, true);
        return store.delete(id, caller.dn(), now()).map(deleted -> {
            if (!deleted) {
                throw ProblemException.notFound("delegated credentials for " + id);
            }
            return null;
        });
    }

    /**
     * The delegation id a job of the current caller records (FTS3's {@code cred_id}): null for token callers; for
     * certificate callers their delegation, which must exist with {@code minimum-remaining} left (419 otherwise, as
     * FTS3 answers, so its client delegates and submits again).
     */
    public Uni<String> forSubmission() {
        GridCaller caller = current.caller().orElse(null);
        if (caller == null || caller.method() != AuthMethod.CERTIFICATE) {
            return Uni.createFrom().nullItem();
        }
        String id = caller.delegationId();
        OffsetDateTime now = now();
        return store.proxy(id, caller.dn(), now).map(found -> {
            if (found.isEmpty()) {
                throw new ProblemException(Problem.of(419, "DELEGATION_NEEDED",
                        "no delegated proxy for " + caller.dn() + " (delegation id " + id + "): delegate first (fts-rest-delegate)"));
            }
            if (found.get().terminationTime().isBefore(now.plus(config.minimumRemaining()))) {
                throw new ProblemException(Problem.of(419, "DELEGATION_NEEDED", "the delegated proxy (delegation id " + id
                        + ") expires at " + found.get().terminationTime() + ", less than " + config.minimumRemaining() + " from now: delegate again"));
            }
            return id;
        });
    }

    private record CheckedProxy(String fullPem, OffsetDateTime terminationTime) {
        @Override
        public String toString() {
            return "CheckedProxy[redacted, until " + terminationTime + "]";
        }
    }

    private CheckedProxy checked(GridCaller caller, String id, String pem, DelegatedCredentials.Pending pending, OffsetDateTime now) {
        List<X509Certificate> chain;
        try {
            chain = ProxyDelegation.certificates(pem);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
        String keyPem;
        try {
            keyPem = new String(cipher.decrypt(pending.sealedKey(), DelegationCipher.row(id, caller.dn()), DelegationCipher.KEY_COLUMN), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            // sealed with another key (a restart without a configured key): the request is void
            throw ProblemException.badRequest("DELEGATION_NO_REQUEST",
                    "the pending certificate request can no longer be used: GET /delegation/" + id + "/request again", List.of());
        }
        String refusal = ProxyDelegation.refusal(chain, ProxyDelegation.privateKey(keyPem), now.toInstant());
        if (refusal != null) {
            throw invalid(refusal);
        }
        GridCaller delegated;
        try {
            delegated = verifiers.certificates().orElseThrow(() -> new ProblemException(Problem.of(403, "DELEGATION_NEEDS_CERTIFICATE",
                    "client certificates are not accepted here"))).verify(chain.toArray(X509Certificate[]::new));
        } catch (Refusal.RefusedException e) {
            throw invalid(e.refusal().code() + ": " + e.refusal().detail());
        }
        if (!delegated.dn().equals(caller.dn()) || !delegated.delegationId().equals(id)) {
            throw invalid("the proxy is not issued by your own credential: it is " + delegated.dn() + " with " + delegated.fqans()
                    + ", you are " + caller.dn() + " with " + caller.fqans());
        }
        return new CheckedProxy(ProxyDelegation.fullProxy(chain, keyPem),
                ProxyDelegation.expiry(chain).atOffset(ZoneOffset.UTC));
    }

    /** The caller, when {@code id} is its delegation id (and it came with a certificate, where that is needed). */
    private GridCaller owner(String id, boolean certificate) {
        GridCaller caller = current.caller().orElseThrow(() ->
                new ProblemException(Problem.of(401, "UNAUTHENTICATED", "delegation needs a client certificate")));
        if (certificate && caller.method() != AuthMethod.CERTIFICATE) {
            throw new ProblemException(Problem.of(403, "DELEGATION_NEEDS_CERTIFICATE",
                    "delegating needs a client certificate (an X.509 proxy), not a token"));
        }
        if (!caller.delegationId().equals(id)) {
            throw new ProblemException(Problem.of(403, "DELEGATION_NOT_YOURS",
                    "the requested delegation id " + id + " is not yours (" + caller.delegationId() + ")"));
        }
        return caller;
    }

    private Uni<Integer> cleanUp(OffsetDateTime now) {
        return store.deleteExpired(now, now.minus(config.requestLifetime()));
    }

    private static ProblemException invalid(String reason) {
        return ProblemException.badRequest("DELEGATION_INVALID", "the delegated proxy is refused: " + reason, List.of());
    }

    private static <T> Uni<T> onWorker(Supplier<T> work) {
        // key generation and chain validation take milliseconds of CPU: never on the event loop
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
