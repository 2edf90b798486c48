package io.ferry.resolver.replicas;

import io.ferry.resolver.authentication.HandleAccess;
import io.ferry.resolver.api.NameInput;
import io.ferry.resolver.repository.NameStore;
import io.ferry.identity.model.FerryRoles;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.Identifier;
import io.ferry.resolver.repository.HandleStore;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.EnumSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Logical names (LFN, GUID, scope:name) bound to handles, and what an identifier names. A name belongs to whoever
 * bound it (its subject and VO); binding needs ADD_VALUE on the handle. A name with a scope (an LFN's first path
 * segment, a DID's part before ':') is in that VO's namespace: only a token whose {@code vo} claim is the scope, or
 * {@code handles:admin}, may bind it. A name may never be, or be read as, a handle: names equal to an existing
 * handle (with or without a leading '/') or under a prefix homed here are refused, and an identifier in handle form
 * resolves to the handle before any name. So a {@code handle:} source of a job always reaches the real handle's
 * replicas.
 */
@ApplicationScoped
public class LogicalNames {

    static final Pattern GUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    static final Pattern DID = Pattern.compile("[A-Za-z0-9_.-]+:[^/\\s][^\\s]*");

    final HandleStore store;

    final HandleAccess access;

    final NameStore names;

    @Inject
    public LogicalNames(HandleStore store, HandleAccess access, NameStore names) {
        this.store = store;
        this.access = access;
        this.names = names;
    }

    /** The handle an identifier names ({@link Identifier}); 404 when none. */
    public Uni<String> handleFor(String id) {
        Identifier ident = Identifier.parse(id);
        String text = ident.text();
        return switch (ident.kind()) {
            case HANDLE -> handle(text).map(h -> h == null ? notFound(id) : h);
            case LFN, GUID, DID -> byName(text, ident.kind().nameKind()).map(h -> h == null ? notFound(id) : h);
            case ANY -> {
                HandleName asHandle = text.startsWith("/") ? null : HandleName.parse(text);
                if (asHandle == null) {
                    yield byName(text, null).map(h -> h == null ? notFound(id) : h);
                }
                yield handle(text).flatMap(h -> h != null ? Uni.createFrom().item(h)
                        // under a prefix homed here, a handle-shaped id is a handle or nothing
                        : store.prefixHomed(store.pool(), asHandle.prefix()).flatMap(homed -> homed ? Uni.createFrom().item(notFound(id))
                        : byName(text, null).map(n -> n == null ? notFound(id) : n)));
            }
        };
    }

    private static String notFound(String id) {
        throw ProblemException.notFound("identifier '" + id + "'");
    }

    private Uni<String> handle(String text) {
        if (HandleName.parse(text) == null) {
            return Uni.createFrom().nullItem();
        }
        return store.find(text).map(h -> h.map(HandleStore.Stored::handle).orElse(null));
    }

    /** A bound name's handle; an LFN may arrive without its leading slash when written into a URL path. */
    private Uni<String> byName(String name, String kind) {
        return names.handleOf(name, kind);
    }

    /** Binds a name to a handle; returns its kind. */
    @WithSpan
    public Uni<String> bind(NameInput in) {
        String name = in.name();
        if (name == null || name.isBlank() || name.length() > 1024) {
            throw ProblemException.badRequest("name", "an LFN (/path), a GUID or scope:name of at most 1024 characters");
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < 0x20 || name.charAt(i) == 0x7f) {
                throw ProblemException.badRequest("name", "no control characters");
            }
        }
        String kind = name.startsWith("/") ? "lfn" : GUID.matcher(name).matches() ? "guid" : DID.matcher(name).matches() ? "did" : null;
        if (kind == null) {
            throw ProblemException.badRequest("name", "not an LFN (/path), a GUID or scope:name");
        }
        String scope = kind.equals("did") ? name.substring(0, name.indexOf(':'))
                : kind.equals("lfn") ? (name.split("/").length > 1 ? name.split("/")[1] : null) : null;
        if (kind.equals("did") && Identifier.reservedScope(scope)) {
            throw ProblemException.badRequest("name", "'" + scope + ":' reads as the kind of an identifier; use another scope");
        }
        HandleName asHandle = HandleName.parse(name.replaceFirst("^/+", ""));
        return access.addable(in.handle()).flatMap(w -> collidesWithHandle(asHandle).flatMap(collides -> {
            if (collides) {
                throw new ProblemException(Problem.of(409, "NAME_IS_A_HANDLE", "'" + name + "' is, or could be, the handle "
                        + asHandle + ": a logical name may not stand for a handle").withErrors(List.of(
                        new Problem.FieldError("name", "names the handle " + asHandle))));
            }
            // a scope is a VO's namespace: jobs of that VO trust what its names lead to
            if (scope != null && !w.caller().admin() && !scope.equals(w.caller().vo())) {
                throw new ProblemException(Problem.of(403, "NAME_OUTSIDE_VO", "'" + name + "' is in the scope '" + scope
                        + "', which only the VO " + scope + " (or " + FerryRoles.HANDLES_ADMIN + ") may bind; the token's VO is "
                        + (w.caller().vo() == null ? "not given" : "'" + w.caller().vo() + "'")).withErrors(List.of(
                        new Problem.FieldError("name", "outside the caller's VO"))));
            }
            return names.bind(name, kind, w.handle().handle(), scope, w.caller().subject(), w.caller().vo())
                    .map(bound -> {
                        if (!bound) {
                            throw ProblemException.conflict("NAME_TAKEN", "'" + name + "' is already bound; its owner may unbind it first");
                        }
                        return kind;
                    });
        }));
    }

    /** A handle of that name exists, or its prefix is homed here (so that it may exist later). */
    private Uni<Boolean> collidesWithHandle(HandleName asHandle) {
        if (asHandle == null) {
            return Uni.createFrom().item(false);
        }
        return store.find(asHandle.toString()).flatMap(h -> h.isPresent() ? Uni.createFrom().item(true)
                : store.prefixHomed(store.pool(), asHandle.prefix()));
    }

    /**
     * Unbinds a name: its owner (the subject or VO that bound it), an admin of the bound handle (REMOVE_VALUE) or
     * {@code handles:admin} may.
     */
    @WithSpan
    public Uni<Void> unbind(String name) {
        if (name == null || name.isBlank() || name.length() > 1024 || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ProblemException.badRequest("name", "the bound name to unbind is required (without control characters)");
        }
        return access.caller(name).onFailure(HandleException.class).transform(HandleAccess::problem)
                .flatMap(caller -> names.binding(name).flatMap(found -> {
                            if (found.isEmpty()) {
                                throw ProblemException.notFound("name '" + name + "'");
                            }
                            if (!caller.writer()) {
                                throw ProblemException.forbidden("unbinding a name needs the " + FerryRoles.HANDLES_WRITE + " scope");
                            }
                            NameStore.Binding b = found.get();
                            String handle = b.handle();
                            boolean owner = caller.admin() || caller.subject().equals(b.ownerSubject())
                                    || (b.ownerVo() != null && b.ownerVo().equals(caller.vo()));
                            Uni<Void> allowed = owner ? Uni.createFrom().voidItem()
                                    : store.find(handle).flatMap(h -> access.require(store.pool(), caller, handle,
                                    h.map(HandleStore.Stored::values).orElse(List.of()), EnumSet.of(AdminPermissions.REMOVE_VALUE)))
                                    .onFailure(HandleException.class).transform(e -> ProblemException.forbidden(
                                            "'" + name + "' was bound by another owner; only it, its VO or the handle's admins may unbind it"));
                            return allowed.flatMap(v -> names.unbind(name, handle));
                        }));
    }
}
