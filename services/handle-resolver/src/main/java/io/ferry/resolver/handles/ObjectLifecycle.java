package io.ferry.resolver.handles;

import io.ferry.resolver.cache.ResolutionCache;
import io.ferry.resolver.authentication.HandleAccess;
import io.ferry.resolver.repository.ReplicaStore;
import io.ferry.identity.model.FerryRoles;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.repository.HandleStore;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.EnumSet;

/**
 * Deleting and restoring the object behind a handle: its replicas go, the handle stays with a tombstone so
 * citations keep resolving (the proxy answers 410 Gone) until an administrator restores it.
 */
@ApplicationScoped
public class ObjectLifecycle {

    final HandleStore store;

    final HandleAccess access;

    final ReplicaStore replicas;

    final ResolutionCache cache;

    @Inject
    public ObjectLifecycle(HandleStore store, HandleAccess access, ReplicaStore replicas, ResolutionCache cache) {
        this.store = store;
        this.access = access;
        this.replicas = replicas;
        this.cache = cache;
    }

    /** Tombstones the object (DELETE_HANDLE on the handle), or with a null reason restores it (handles:admin). */
    @WithSpan
    public Uni<Void> tombstone(String handle, String reason) {
        if (HandleName.parse(handle) == null) {
            throw HandleException.invalidHandle(handle);
        }
        if (reason != null && (reason.length() > 1000 || reason.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f))) {
            throw ProblemException.badRequest("reason", "at most 1000 characters, without control characters");
        }
        return cache.afterWrite(handle, access.caller(handle).flatMap(caller -> store.pool().withTransaction(c -> store.find(c, handle).flatMap(found -> {
            HandleStore.Stored h = found.orElseThrow(() -> HandleException.notFound(handle));
            Uni<Void> allowed = reason == null
                    ? (caller.admin() ? Uni.createFrom().voidItem() : Uni.createFrom().failure(
                    HandleException.notPermitted(handle, "restoring needs the " + FerryRoles.HANDLES_ADMIN + " scope")))
                    : access.require(c, caller, h.handle(), h.values(),
                    EnumSet.of(AdminPermissions.DELETE_HANDLE));
            return allowed.flatMap(v -> reason == null ? Uni.createFrom().voidItem()
                            : replicas.deleteAll(c, h.handle()))
                    .flatMap(v -> store.tombstone(c, h.handle(), reason));
        }))));
    }
}
